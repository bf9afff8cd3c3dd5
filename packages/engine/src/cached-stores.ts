import { type Clock, lazyProperties } from "@oar/core";
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

/** The store with `onWrite` called before each of its `writes`. */
function noticingWrites<T extends object>(store: T, writes: readonly PropertyKey[], onWrite: () => void): T {
  const methods = store as Record<PropertyKey, unknown>;
  const wrapped: Record<PropertyKey, unknown> = { ...methods };
  for (const name of writes) {
    const method = methods[name] as (...args: unknown[]) => Promise<unknown>;
    wrapped[name] = (...args: unknown[]) => {
      onWrite();
      return method.apply(store, args);
    };
  }
  return wrapped as T;
}

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
  const events: EngineStores["events"] = {
    ...given.events,
    appendEvent: async (input) => {
      const appended = await given.events.appendEvent(input);
      onEventsAppended();
      return appended;
    },
  };
  return {
    ...given,
    ...caches,
    events,
    async transaction(work) {
      const touched = new Set<Cached>();
      let appended = false;
      // Each port is wrapped when first used, as the transaction's own stores are made.
      const noticed = (tx: EngineStores): EngineStores => {
        const ports = Object.fromEntries(
          Object.keys(tx)
            .filter((port) => port !== "transaction")
            .map((port) => [port, () => tx[port as keyof EngineStores]]),
        ) as { [Port in Exclude<keyof EngineStores, "transaction">]: () => EngineStores[Port] };
        ports.events = () =>
          noticingWrites(tx.events, ["appendEvent"], () => {
            appended = true;
          });
        for (const port of Object.keys(WRITES) as Cached[]) {
          Object.assign(ports, {
            [port]: () => noticingWrites(tx[port], WRITES[port], () => touched.add(port)),
          });
        }
        const stores = lazyProperties(ports) as EngineStores;
        Object.defineProperty(stores, "transaction", {
          value: (inner: Parameters<EngineStores["transaction"]>[0]) => inner(stores),
          enumerable: true,
        });
        return stores;
      };
      try {
        const result = await given.transaction((tx) => work(noticed(tx)));
        if (appended) {
          onEventsAppended();
        }
        return result;
      } finally {
        for (const port of touched) {
          caches[port].forgetAll();
        }
      }
    },
  };
}
