import { isRelayError } from "@oar/core";
import { createSequentialIdGenerator } from "@oar/core/testing";
import { expect, onTestFinished } from "vitest";
import { createOwnerApi } from "../../src/owner/create-owner-api";
import type { EngineDeps } from "../../src/ports/engine-deps";
import type { FolderResolver } from "../../src/ports/folder-resolver";
import type { Provider } from "../../src/ports/provider";
import { createSessionRuntime } from "../../src/runtime/create-session-runtime";
import { createTestProvider, openTestStores, settleStoreCalls, type TestProvider } from "../../src/testing";
import { testClock } from "../actions/harness";

export const T0 = Date.parse("2026-01-01T00:00:00.000Z");

/** Lets the runtime's promise callbacks and store calls run (no time passes on the FakeClock). */
export const settle = (rounds = 8): Promise<void> => settleStoreCalls(rounds);

export interface OwnerHarnessOptions {
  readonly allowedRoots?: readonly string[];
  readonly folders?: FolderResolver;
  /** Providers after the test provider ("test", models test-1 and test-2). */
  readonly extraProviders?: readonly Provider[];
}

/** The owner API over the suite's stores, the test provider, a session runtime and a FakeClock. */
export async function ownerHarness(options: OwnerHarnessOptions = {}) {
  const clock = testClock();
  const ids = createSequentialIdGenerator();
  const stores = await openTestStores();
  const provider: TestProvider = createTestProvider();
  const providers = [provider, ...(options.extraProviders ?? [])];
  const runtime = createSessionRuntime({
    stores,
    providers,
    clock,
    ids,
    callTool: async () => ({
      ok: false,
      code: "REMOTE_RELAY_UNSUPPORTED",
      error: "no engine in owner tests",
    }),
  });
  onTestFinished(() => runtime.close());
  await runtime.start();
  const deps: EngineDeps = {
    stores,
    providers,
    clock,
    ids,
    relay: { name: "desk", version: "0.1.0", platform: "linux-x64" },
    ...(options.allowedRoots === undefined ? {} : { allowedRoots: options.allowedRoots }),
    ...(options.folders === undefined ? {} : { folders: options.folders }),
  };
  const owner = createOwnerApi(deps, runtime);
  /** Waits (on the FakeClock, no time passing) until the turn has ended. */
  const turnEnd = (turnId: string) => runtime.waitForTurn(turnId, 60_000);
  return { clock, ids, stores, provider, runtime, owner, turnEnd };
}

/** A provider whose agent runs outside the relay (DESIGN §5 `external`). */
export function outsideProvider(): Provider {
  return {
    info: { id: "outside", label: "Outside", models: null, efforts: [], drivenFromOutside: true },
    startWorker: () => null,
  };
}

/** Expects the promise to reject with a RelayError of that code; returns it for further checks. */
export async function refusal(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  expect(isRelayError(error), `expected a RelayError ${code}, got ${String(error)}`).toBe(true);
  if (!isRelayError(error)) {
    throw error;
  }
  expect(error.code).toBe(code);
  return error;
}
