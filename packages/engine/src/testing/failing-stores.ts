import { overriding } from "@oar/core";
import type { EngineStores, StorePort as Port } from "../ports/engine-stores";

/** `port.method` of EngineStores, e.g. `"sessions.enqueueTurn"`. */
export type StoreMethod = {
  [P in Port]: `${P & string}.${keyof EngineStores[P] & string}`;
}[Port];

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
  return replaceMethod(stores, method, ({ original, args }) =>
    failing() ? Promise.reject(error()) : original(...args),
  );
}

/** What a replaced store method is given: its arguments, the method it replaces, and its store. */
export interface ReplacedCall<S = Record<string, (...args: unknown[]) => Promise<unknown>>> {
  readonly args: unknown[];
  readonly original: (...args: unknown[]) => Promise<unknown>;
  /**
   * The store the call was made on (a transaction's own, inside one): what the replacement uses
   * for further calls, since the embedded database's single connection would make a call on the
   * stores outside wait for the transaction to end.
   */
  readonly store: S;
}

/**
 * The stores with one method replaced, inside transactions too: how a test makes something
 * happen between two steps of a verb (another writer getting there first), on any store.
 */
export function withReplacedMethod<P extends Port>(
  stores: EngineStores,
  method: `${P}.${keyof EngineStores[P] & string}`,
  replacement: (call: ReplacedCall<EngineStores[P]>) => Promise<unknown>,
): EngineStores {
  return replaceMethod(stores, method, replacement as (call: ReplacedCall<unknown>) => Promise<unknown>);
}

function replaceMethod(
  stores: EngineStores,
  method: string,
  replacement: (call: ReplacedCall<unknown>) => Promise<unknown>,
): EngineStores {
  const [port, name] = method.split(".") as [Port, string];
  const wrap = (inner: EngineStores): EngineStores => {
    const store = inner[port];
    const original = (store as unknown as Record<string, unknown>)[name];
    if (typeof original !== "function") {
      throw new Error(`No store method ${method}.`);
    }
    const replaced = overriding(store as object, {
      [name]: (...args: unknown[]) =>
        replacement({ args, original: (...given) => original.apply(store, given), store }),
    });
    return overriding(inner, {
      [port]: replaced,
      transaction: (work: Parameters<EngineStores["transaction"]>[0]) =>
        inner.transaction((tx) => work(wrap(tx))),
    } as Partial<EngineStores>);
  };
  return wrap(stores);
}
