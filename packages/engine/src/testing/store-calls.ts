import type { EngineStores } from "../ports/engine-stores";
import { STORE_PORTS } from "../ports/engine-stores";

// The store calls in flight in this test process. A test on a fake clock lets the engine's work
// run before it looks; on memory stores that work is done in a few turns of the event loop, on a
// database it waits on I/O, so "settled" means: nothing left in flight, and a few quiet turns.
const inFlight = new Set<Promise<unknown>>();

function tracked<T>(result: T): T {
  if (result instanceof Promise) {
    inFlight.add(result);
    const forget = () => inFlight.delete(result);
    result.then(forget, forget);
  }
  return result;
}

// Plain objects with the stores' members as their own properties: a test may spread them to
// replace one method (a store's methods may live on its prototype, which a spread would drop).
function trackStore<S extends object>(store: S): S {
  const members = store as Record<string, unknown>;
  const wrapped: Record<string, unknown> = {};
  for (const name in members) {
    const member = members[name];
    wrapped[name] =
      typeof member === "function" ? (...args: unknown[]) => tracked(member.apply(store, args)) : member;
  }
  return wrapped as S;
}

/** The same stores, each call counted in flight until it settles (see `settleStoreCalls`). */
export function trackStoreCalls(stores: EngineStores): EngineStores {
  const wrapped: Record<string, unknown> = {};
  for (const port of STORE_PORTS) {
    wrapped[port] = trackStore(stores[port]);
  }
  wrapped.transaction = <T>(work: (tx: EngineStores) => Promise<T>): Promise<T> =>
    tracked(stores.transaction((tx) => work(trackStoreCalls(tx))));
  return wrapped as unknown as EngineStores;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets every promise callback and store call run: returns once no tracked store call is in flight
 * and `quietTurns` turns of the event loop have passed without one.
 */
export async function settleStoreCalls(quietTurns = 5): Promise<void> {
  for (let quiet = 0; quiet < quietTurns; ) {
    if (inFlight.size > 0) {
      await Promise.allSettled([...inFlight]);
      quiet = 0;
      continue;
    }
    await nextTurn();
    quiet++;
  }
}

/** Between two timers of a fake clock: promise callbacks, then any store call they started. */
export async function settleBetweenTimers(): Promise<void> {
  for (;;) {
    for (let i = 0; i < 10; i++) {
      await Promise.resolve();
    }
    if (inFlight.size === 0) {
      return;
    }
    await Promise.allSettled([...inFlight]);
  }
}
