import { type IdGenerator, RelayError } from "@oar/core";
import { createSequentialIdGenerator, type FakeClock } from "@oar/core/testing";
import { onTestFinished } from "vitest";
import type { EngineStores, Provider } from "../../src";
import { createSessionRuntime } from "../../src/runtime/create-session-runtime";
import { createTestProvider, openTestStores, settleStoreCalls } from "../../src/testing";
import { testClock } from "../actions/harness";

export { testClock };

export const T0 = Date.parse("2026-01-01T00:00:00.000Z");

/** Lets every promise callback and store call of the runtime run (no time passes on the FakeClock). */
export const settle = (rounds = 5): Promise<void> => settleStoreCalls(rounds);

export interface RuntimeHarnessOptions {
  readonly maxTurnSeconds?: number;
  readonly extraProviders?: readonly Provider[];
  readonly stores?: EngineStores;
  readonly clock?: FakeClock;
  /** Another runtime shares the stores (DESIGN §9). */
  readonly sharedStore?: boolean;
  /** Ids apart from another runtime's on the same stores (default: sequential from 1). */
  readonly ids?: IdGenerator;
}

/** A started runtime over the suite's stores (memory, PGlite or Postgres), the test provider and a FakeClock; closed after the test. */
export async function runtimeHarness(options: RuntimeHarnessOptions = {}) {
  const clock = options.clock ?? testClock();
  const ids = options.ids ?? createSequentialIdGenerator();
  const stores = options.stores ?? (await openTestStores());
  const provider = createTestProvider();
  const toolCalls: { sessionId: string; input: unknown }[] = [];
  const runtime = createSessionRuntime({
    stores,
    providers: [provider, ...(options.extraProviders ?? [])],
    clock,
    ids,
    callTool: async (sessionId, input) => {
      toolCalls.push({ sessionId, input });
      return { ok: true, echoed: input };
    },
    ...(options.sharedStore === undefined ? {} : { sharedStore: options.sharedStore }),
    ...(options.maxTurnSeconds === undefined
      ? {}
      : { maxTurnSeconds: async () => options.maxTurnSeconds ?? 0 }),
  });
  onTestFinished(() => runtime.close());
  await runtime.start();
  let sessionCount = 0;
  const createSession = async (overrides: { provider?: string; model?: string; id?: string } = {}) => {
    sessionCount++;
    return stores.sessions.createSession({
      id: overrides.id ?? `ses_${sessionCount}`,
      title: `Session ${sessionCount}`,
      provider: overrides.provider ?? "test",
      model: overrides.model ?? "test-1",
      createdAt: clock.now(),
    });
  };
  const prompt = (sessionId: string, text: string) =>
    runtime.enqueuePrompt({ sessionId, text, origin: { kind: "owner" } });
  return { clock, ids, stores, provider, runtime, toolCalls, createSession, prompt };
}

/** Sequential ids that never meet another generator's: each carries `tag` after its prefix. */
export function taggedIds(tag: string): IdGenerator {
  const inner = createSequentialIdGenerator();
  return { next: (kind) => inner.next(kind).replace("_", `_${tag}`) };
}

/** Moves the clock in steps, letting the runtime's async work run after each one. */
export async function passInSteps(clock: FakeClock, ms: number, step = 500): Promise<void> {
  for (let done = 0; done < ms; done += step) {
    clock.advance(Math.min(step, ms - done));
    await settle(20);
  }
}

/** What a store call rejects with while the database does not answer. */
export const outage = () =>
  new RelayError("REMOTE_RELAY_UNAVAILABLE", "The relay's database does not answer (test).", {
    retryable: true,
  });
