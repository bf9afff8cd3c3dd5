import type { Logger } from "@oar/core";
import { createSequentialIdGenerator, FakeClock } from "@oar/core/testing";
import type { OwnerSettingsPatch } from "@oar/schema";
import { expect, onTestFinished } from "vitest";
import { createEngine } from "../../src/create-engine";
import type { Engine } from "../../src/engine";
import type { EngineDeps } from "../../src/ports/engine-deps";
import type { EngineObserver } from "../../src/ports/engine-observer";
import type { EngineStores } from "../../src/ports/engine-stores";
import type { FolderResolver } from "../../src/ports/folder-resolver";
import type { Provider, ProviderSource } from "../../src/ports/provider";
import type { RetentionOptions } from "../../src/ports/retention-options";
import type { NewSession, SessionRecord } from "../../src/ports/session-store";
import type { ExecuteOptions, ToolResult } from "../../src/ports/tool-result";
import {
  createTestProvider,
  openTestStores,
  settleBetweenTimers,
  settleStoreCalls,
  type TestProvider,
  type TestProviderOptions,
} from "../../src/testing";

export const T0 = Date.parse("2026-01-01T00:00:00.000Z");
export const RELAY = { name: "desk", version: "0.1.0", platform: "linux-x64" } as const;

/** Lets every promise callback and store call run (no time passes on the FakeClock). */
export const settle = (rounds = 5): Promise<void> => settleStoreCalls(rounds);

/** A fake clock that lets store calls land between its timers (memory or a database). */
export const testClock = (start = T0) => new FakeClock(start, { settle: settleBetweenTimers });

/** A promise with a flag saying whether it has settled yet. */
export function track<T>(promise: Promise<T>): { readonly promise: Promise<T>; settled(): boolean } {
  let done = false;
  const tracked = promise.finally(() => {
    done = true;
  });
  return { promise: tracked, settled: () => done };
}

export interface HarnessOptions {
  readonly allowedRoots?: readonly string[];
  readonly folders?: FolderResolver;
  readonly openUrl?: (sessionId: string) => string;
  readonly testProvider?: TestProviderOptions;
  readonly extraProviders?: readonly Provider[];
  /** Providers the owner's settings make. */
  readonly providerSources?: readonly ProviderSource[];
  /** Overrides of the calling conversation (an owner-started session by default). */
  readonly caller?: Partial<NewSession>;
  /**
   * The approval cards (DESIGN GAP-04) are on in every engine; these tests of other things turn
   * them off unless they ask for them.
   */
  readonly approvalCards?: boolean;
  /** What the engine works on, made from the stores the test reads (a failing method). */
  readonly engineStores?: (stores: EngineStores) => EngineStores;
  /** The stores to use (a second engine over the first one's, as after a restart). */
  readonly stores?: EngineStores;
  /** Where background tasks write their output. */
  readonly taskOutputDir?: string;
  /** The engine's logger; default none. */
  readonly logger?: Logger;
  /** Told of turns, calls, deliveries and firings; default none. */
  readonly observer?: EngineObserver;
  /** Old rows pruned on the clock's timer with these options; default none pruned. */
  readonly retention?: RetentionOptions;
}

export interface Harness {
  readonly clock: FakeClock;
  readonly stores: EngineStores;
  readonly provider: TestProvider;
  readonly engine: Engine;
  readonly deps: EngineDeps;
  /** The calling conversation: an owner-started session on the test provider. */
  readonly caller: SessionRecord;
  /** Runs a relay_tool call as the caller. */
  call(input: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  callAs(sessionId: string, input: unknown, options?: ExecuteOptions): Promise<ToolResult>;
  /** A call expected to succeed: fails the test with the envelope otherwise. */
  ok(input: unknown, sessionId?: string): Promise<ToolResult>;
  /** Sends the test provider's `hold` prompt without waiting: the target's turn stays open. */
  sendHeld(target: string): Promise<ToolResult>;
  /** A session the owner started (no createdBy), on the test provider. */
  ownerSession(overrides?: Partial<NewSession>): Promise<SessionRecord>;
  /** A session this caller's agent started (createdBy = the caller), idle. */
  agentSession(overrides?: Partial<NewSession>): Promise<SessionRecord>;
  session(id: string): Promise<SessionRecord>;
  patchSettings(patch: OwnerSettingsPatch): Promise<void>;
}

/** An engine over the suite's stores (memory, PGlite or Postgres), the test provider and a FakeClock, closed after the test. */
export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = testClock();
  const stores = options.stores ?? (await openTestStores());
  const provider = createTestProvider(options.testProvider);
  const deps: EngineDeps = {
    stores: options.engineStores?.(stores) ?? stores,
    providers: [provider, ...(options.extraProviders ?? [])],
    ...(options.providerSources === undefined ? {} : { providerSources: options.providerSources }),
    clock,
    ids: createSequentialIdGenerator(),
    relay: RELAY,
    ...(options.allowedRoots === undefined ? {} : { allowedRoots: options.allowedRoots }),
    ...(options.folders === undefined ? {} : { folders: options.folders }),
    ...(options.openUrl === undefined ? {} : { openUrl: options.openUrl }),
    approvalCards: options.approvalCards ?? false,
    ...(options.taskOutputDir === undefined ? {} : { taskOutputDir: options.taskOutputDir }),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.observer === undefined ? {} : { observer: options.observer }),
    ...(options.retention === undefined ? {} : { retention: options.retention }),
  };
  const engine = createEngine(deps);
  await engine.start();
  onTestFinished(async () => {
    provider.release();
    await engine.close();
  });

  let count = 0;
  const ownerSession = async (overrides: Partial<NewSession> = {}) => {
    count++;
    return stores.sessions.createSession({
      id: `ses_owner${String(count).padStart(7, "0")}`,
      title: `Owner session ${count}`,
      provider: "test",
      model: "test-1",
      createdAt: clock.now(),
      ...overrides,
    });
  };
  const caller = await ownerSession({ title: "Planner", cwd: "/srv/app", ...options.caller });
  const callAs = (sessionId: string, input: unknown, executeOptions?: ExecuteOptions) =>
    engine.execute(sessionId, input, executeOptions);
  const ok = async (input: unknown, sessionId = caller.id) => {
    const result = await callAs(sessionId, input);
    expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
    return result;
  };
  return {
    clock,
    stores,
    provider,
    engine,
    deps,
    caller,
    call: (input, executeOptions) => callAs(caller.id, input, executeOptions),
    callAs,
    ok,
    sendHeld(target) {
      return ok({ action: "send", relay: "this", session: target, text: "hold", wait_seconds: 0 });
    },
    ownerSession,
    agentSession: (overrides = {}) =>
      ownerSession({ createdBy: { relay: null, session: caller.id }, viaAgent: caller.title, ...overrides }),
    async session(id) {
      const session = await stores.sessions.getSession(id);
      expect(session).not.toBeNull();
      return session as SessionRecord;
    },
    async patchSettings(patch) {
      // Through the engine, as the owner API does: the engine caches settings for a second.
      await engine.owner.patchSettings(patch);
    },
  };
}

/** The refusal's code and message, for compact assertions. */
export function refusal(result: ToolResult): { code: unknown; error: unknown } {
  expect(result.ok, JSON.stringify(result)).toBe(false);
  return { code: result.code, error: result.error };
}
