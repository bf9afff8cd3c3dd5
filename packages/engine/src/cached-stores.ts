import { type Clock, lazyPrototypeProperties, overriding } from "@oar/core";
import { cachingPeerStore } from "./pairing/peer-cache";
import { rememberingMentions } from "./pairing/unlock-cache";
import type { EngineStores } from "./ports/engine-stores";
import { STORE_PORTS, type StorePort } from "./ports/engine-stores";
import { cachingSettingsStore } from "./settings/settings-cache";
import { cachingTokenStore } from "./tokens/token-cache";

/** The stores with a cache in front: what changes a few times a day is read from memory. */
type Cached = "settings" | "peers" | "unlocks" | "tokens";

// The methods of each cached store that change what its cache remembers.
const WRITES: { readonly [Port in Cached]: readonly (keyof EngineStores[Port])[] } = {
  settings: ["setSetting", "deleteSetting", "addToSetting", "updateSetting"],
  peers: ["createPeer", "updatePeer", "removePeer"],
  unlocks: ["unlockRelay", "forgetRelay"],
  tokens: ["storeToken", "revokeToken", "revokeTokensOf", "bindToken"],
};

/**
 * The store with `onWrite` called after each of its `writes` that did not fail. It derives from
 * the store rather than copying it: a store's methods may be its prototype's.
 */
function noticingWrites<T extends object>(store: T, writes: readonly PropertyKey[], onWrite: () => void): T {
  const methods = store as Record<PropertyKey, unknown>;
  const overrides: Record<PropertyKey, unknown> = {};
  for (const name of writes) {
    const method = methods[name] as (...args: unknown[]) => Promise<unknown>;
    overrides[name] = async (...args: unknown[]) => {
      const result = await method.apply(store, args);
      onWrite();
      return result;
    };
  }
  return overriding(store, overrides as Partial<T>);
}

// The writes that give the event dispatcher work it must arm for: an event in the outbox, a
// subscription whose first tick (a heartbeat, a stall check) is due or comes earlier. A quiet
// relay's dispatcher has armed for nothing; without the hint a heartbeat never came.
const DUE_WORK = {
  events: ["appendEvent"],
  subscriptions: ["createSubscription", "advanceTicks"],
} as const satisfies { readonly [Port in "events" | "subscriptions"]: readonly (keyof EngineStores[Port])[] };

/** What a transaction did that the caches and the dispatcher's hint must hear of. */
interface Noticed {
  readonly touched: Set<Cached>;
  dueWork: boolean;
}

/**
 * A transaction's stores as the caches must see them: the writes to a cached port noted, the
 * outbox's appends too. Each port is wrapped on first use, by a getter of the prototype, so a
 * transaction allocates one object for it.
 */
class NoticingStores {
  constructor(
    readonly tx: EngineStores,
    readonly noticed: Noticed,
  ) {}

  transaction<T>(inner: (stores: EngineStores) => Promise<T>): Promise<T> {
    return inner(this as unknown as EngineStores);
  }

  wrap(port: StorePort): unknown {
    const store = this.tx[port];
    if (Object.hasOwn(DUE_WORK, port)) {
      return noticingWrites(store, DUE_WORK[port as keyof typeof DUE_WORK], () => {
        this.noticed.dueWork = true;
      });
    }
    if (Object.hasOwn(WRITES, port)) {
      const cached = port as Cached;
      return noticingWrites(store, WRITES[cached], () => this.noticed.touched.add(cached));
    }
    return store;
  }
}

lazyPrototypeProperties(NoticingStores.prototype, STORE_PORTS, (stores, port) => stores.wrap(port));

/**
 * The engine's stores: settings, pairings, mention unlocks and tokens read from memory for a
 * second (DESIGN §9), each cache forgetting what this process changes. A transaction writes
 * around the caches, so the caches it touched forget once it ends, committed or not.
 */
export function cachedStores(
  given: EngineStores,
  clock: Clock,
  /**
   * Called once this process committed events to the outbox, or a subscription's tick (the
   * dispatcher's and the owner stream's hint).
   */
  onDueWork: () => void = () => {},
): EngineStores {
  const caches = {
    settings: cachingSettingsStore(given.settings, { clock }),
    peers: cachingPeerStore(given.peers, { clock }),
    unlocks: rememberingMentions(given.unlocks, { clock }),
    tokens: cachingTokenStore(given.tokens, { clock }),
  };
  const events = noticingWrites(given.events, DUE_WORK.events, onDueWork);
  const subscriptions = noticingWrites(given.subscriptions, DUE_WORK.subscriptions, onDueWork);
  return overriding(given, {
    ...caches,
    events,
    subscriptions,
    async transaction<T>(work: (stores: EngineStores) => Promise<T>): Promise<T> {
      const noticed: Noticed = { touched: new Set(), dueWork: false };
      try {
        const result = await given.transaction((tx) =>
          work(new NoticingStores(tx, noticed) as unknown as EngineStores),
        );
        if (noticed.dueWork) {
          onDueWork();
        }
        return result;
      } finally {
        for (const port of noticed.touched) {
          caches[port].forgetAll();
        }
      }
    },
  });
}
