import { afterAll, afterEach, beforeAll } from "vitest";
import { openStorage, type Storage, type Stores } from "../src";
import { postgresDatabase, useTestStorage } from "./databases";

/** A promise and the function that settles it: how a test holds a transaction open. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` is still pending after `ms`. */
export async function stillPending(promise: Promise<unknown>, ms = 200): Promise<boolean> {
  const pending = Symbol("pending");
  return (await Promise.race([promise.then(() => null), sleep(ms).then(() => pending)])) === pending;
}

/**
 * Two pools on one Postgres, as two relay processes open it: `a` and `b` are their stores. Each
 * test starts from empty tables.
 */
export function useTwoProcesses(): {
  readonly a: () => Stores;
  readonly b: () => Stores;
  /** The second process's storage itself (its database handle). */
  readonly other: () => Storage;
} {
  const test = useTestStorage(postgresDatabase);
  let other: Storage | undefined;
  beforeAll(async () => {
    other = await openStorage(test.config());
  }, 60_000);
  afterAll(async () => {
    await other?.close();
  });
  afterEach(() => test.empty());
  return {
    a: () => test.storage().stores,
    b: () => (other as Storage).stores,
    other: () => other as Storage,
  };
}
