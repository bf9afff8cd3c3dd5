import { type Clock, lazyPrototypeProperties, overriding } from "@oar/core";
import type { EngineStores } from "./engine";
import { cachingPeerStore } from "./peers/peer-cache";
import { rememberingMentions } from "./peers/unlock-cache";
import { cachingSettingsStore } from "./settings-cache";
import { cachingTokenStore } from "./tokens/token-cache";

/** The stores with a cache in front: what changes a few times a day is read from memory. */
type Cached = "settings" | "peers" | "unlocks" | "tokens";

// The methods of each cached store that change what its cache remembers.
const WRITES: { readonly [Port in Cached]: readonly (keyof EngineStores[Port])[] } = {
  settings: ["setSetting", "deleteSetting"],
  peers: ["createPeer", "updatePeer", "removePeer"],
  unlocks: ["unlockRelay", "forgetRelay"],
  tokens: ["storeToken", "revokeToken", "revokeTokensOf", "bindToken"],
};

/**
 * The store with `onWrite` called before each of its `writes`. It derives from the store rather
 * than copying it: a store's methods may be its prototype's.
 */
function noticingWrites<T extends object>(store: T, writes: readonly PropertyKey[], onWrite: () => void): T {
  const methods = store as Record<PropertyKey, unknown>;
  const overrides: Record<PropertyKey, unknown> = {};
  for (const name of writes) {
    const method = methods[name] as (...args: unknown[]) => Promise<unknown>;
    overrides[name] = (...args: unknown[]) => {
      onWrite();
      return method.apply(store, args);
    };
  }
  return overriding(store, overrides as Partial<T>);
}

type Port = Exclude<keyof EngineStores, "transaction">;

/** What a transaction did that the caches and the outbox hint must hear of. */
interface Noticed {
  readonly touched: Set<Cached>;
  appended: boolean;
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

  wrap(port: Port): unknown {
    const store = this.tx[port];
    if (port === "events") {
      return noticingWrites(store, ["appendEvent"], () => {
        this.noticed.appended = true;
      });
    }
    if (Object.hasOwn(WRITES, port)) {
      const cached = port as Cached;
      return noticingWrites(store, WRITES[cached], () => this.noticed.touched.add(cached));
    }
    return store;
  }
}

/** Every port of EngineStores: the compiler checks the list is whole. */
const PORTS = Object.keys({
  sessions: true,
  groups: true,
  settings: true,
  questions: true,
  cards: true,
  unlocks: true,
  loopCounters: true,
  peers: true,
  tokens: true,
  leases: true,
  events: true,
  subscriptions: true,
  deliveries: true,
  tasks: true,
  schedules: true,
  toolCalls: true,
} satisfies Record<Port, true>) as Port[];

lazyPrototypeProperties(NoticingStores.prototype, PORTS, (stores, port) => stores.wrap(port));

/**
 * The engine's stores: settings, pairings, mention unlocks and tokens read from memory for a
 * second (DESIGN §9), each cache forgetting what this process changes. A transaction writes
 * around the caches, so the caches it touched forget once it ends, committed or not.
 */
export function cachedStores(
  given: EngineStores,
  clock: Clock,
  /** Called once events are committed to the outbox by this process (the dispatcher's and the owner stream's hint). */
  onEventsAppended: () => void = () => {},
): EngineStores {
  const caches = {
    settings: cachingSettingsStore(given.settings, { clock }),
    peers: cachingPeerStore(given.peers, { clock }),
    unlocks: rememberingMentions(given.unlocks, { clock }),
    tokens: cachingTokenStore(given.tokens, { clock }),
  };
  const events = overriding(given.events, {
    appendEvent: async (input) => {
      const appended = await given.events.appendEvent(input);
      onEventsAppended();
      return appended;
    },
  });
  return overriding(given, {
    ...caches,
    events,
    async transaction<T>(work: (stores: EngineStores) => Promise<T>): Promise<T> {
      const noticed: Noticed = { touched: new Set(), appended: false };
      try {
        const result = await given.transaction((tx) =>
          work(new NoticingStores(tx, noticed) as unknown as EngineStores),
        );
        if (noticed.appended) {
          onEventsAppended();
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
