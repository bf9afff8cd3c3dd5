import { afterEach, beforeEach } from "vitest";

/** What a contract suite's setup returns: the store under test and how to dispose of it. */
export interface ContractFixture<S> {
  readonly store: S;
  cleanup(): Promise<void>;
}

export type ContractSetup<F extends ContractFixture<unknown>> = () => Promise<F>;

/**
 * Gives every test of a contract suite a fresh fixture and disposes of it afterwards. Call it
 * inside the suite's `describe`; the returned getter is only valid inside a test.
 */
export function useContractFixture<F extends ContractFixture<unknown>>(setup: ContractSetup<F>): () => F {
  let current: F | undefined;
  beforeEach(async () => {
    current = await setup();
  });
  afterEach(async () => {
    const fixture = current;
    current = undefined;
    await fixture?.cleanup();
  });
  return () => {
    if (current === undefined) {
      throw new Error("A contract fixture is only available inside a test.");
    }
    return current;
  };
}

/** 2026-01-01T00:00:00.000Z: contract suites place their events at offsets from it. */
export const T0 = 1_767_225_600_000;
