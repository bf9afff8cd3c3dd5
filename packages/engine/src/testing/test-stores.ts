import { onTestFinished } from "vitest";
import type { EngineStores } from "../ports/engine-stores";
import { createMemoryEngineStores } from "./memory-engine-stores";
import { trackStoreCalls } from "./store-calls";

/**
 * Where the engine's own suites get their stores. Memory by default; @oar/storage runs the same
 * suites on PGlite and on Postgres by installing its source in a setup file (`useTestStores`).
 */
export interface TestStoresSource {
  readonly name: "memory" | "pglite" | "postgres";
  /** Empty stores of their own (another database than any open one), given back by `release`. */
  open(): Promise<EngineStores>;
  release(stores: EngineStores): Promise<void>;
}

const memorySource: TestStoresSource = {
  name: "memory",
  open: async () => createMemoryEngineStores(),
  release: async () => {},
};

let source: TestStoresSource = memorySource;

export function useTestStores(next: TestStoresSource): void {
  source = next;
}

/** Which kind of store the suites run on. */
export function testStoresKind(): TestStoresSource["name"] {
  return source.name;
}

/**
 * Empty stores for the current test, their calls tracked (`settleStoreCalls`); given back when the
 * test ends, after the hooks registered later (the engine's close) have run.
 */
export async function openTestStores(): Promise<EngineStores> {
  const from = source;
  const stores = await from.open();
  onTestFinished(() => from.release(stores));
  return trackStoreCalls(stores);
}
