import { overriding } from "@oar/core";
import type { EngineStores } from "../engine";

/** `port.method` of EngineStores, e.g. `"sessions.enqueueTurn"`. */
export type StoreMethod = {
  [Port in Exclude<
    keyof EngineStores,
    "transaction"
  >]: `${Port & string}.${keyof EngineStores[Port] & string}`;
}[Exclude<keyof EngineStores, "transaction">];

/** The error a failing store method rejects with, so a test can tell it from any other. */
export class InjectedStoreFailure extends Error {
  constructor(readonly method: StoreMethod) {
    super(`Injected failure of ${method}.`);
    this.name = "InjectedStoreFailure";
  }
}

/**
 * The stores with one method failing while `failing()` says so, inside transactions too: how a
 * test fails the last write of a verb and checks that the earlier ones were undone, or makes the
 * database "go away" for a while (an `error` of code REMOTE_RELAY_UNAVAILABLE).
 */
export function withFailingMethod(
  stores: EngineStores,
  method: StoreMethod,
  options: {
    /** Whether the method fails on this call; default always. */
    readonly failing?: () => boolean;
    /** What it rejects with; default an InjectedStoreFailure. */
    readonly error?: () => Error;
  } = {},
): EngineStores {
  const failing = options.failing ?? (() => true);
  const error = options.error ?? (() => new InjectedStoreFailure(method));
  const [port, name] = method.split(".") as [Exclude<keyof EngineStores, "transaction">, string];
  const wrap = (inner: EngineStores): EngineStores => {
    const store = inner[port] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const original = store[name];
    if (original === undefined) {
      throw new Error(`No store method ${method}.`);
    }
    const replaced = overriding(store, {
      [name]: (...args: unknown[]) => (failing() ? Promise.reject(error()) : original.apply(store, args)),
    });
    return overriding(inner, {
      [port]: replaced,
      transaction: (work: Parameters<EngineStores["transaction"]>[0]) =>
        inner.transaction((tx) => work(wrap(tx))),
    } as Partial<EngineStores>);
  };
  return wrap(stores);
}
