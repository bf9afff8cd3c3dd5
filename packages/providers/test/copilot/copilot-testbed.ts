import type { Provider, TurnInput, Worker, WorkerSession } from "@oar/engine";
import { onTestFinished } from "vitest";
import { copilotProviderSource } from "../../src";
import { COPILOT_BYOK_MODEL, copilotTestEnv, pinnedCopilotBinary } from "../../src/testing";
import { type CliTestbed, createCliTestbed } from "../cli-testbed";

export { pinnedCopilotBinary };

// Waiting on a real CLI: it starts in about a second here, but a loaded CI box is slower.
export const COPILOT_TEST_TIMEOUT_MS = 60_000;

/** The model the testbed's BYOK configuration names (COPILOT_MODEL): the provider's default. */
export const BYOK_MODEL = COPILOT_BYOK_MODEL;

/** The real Copilot CLI, offline, in its BYOK mode against the fake Messages API (DESIGN §5). */
export function createCopilotTestbed(): Promise<CliTestbed> {
  return createCliTestbed(copilotTestEnv);
}

export function copilotProvider(bed: CliTestbed, options: { cancelGraceMs?: number } = {}): Provider {
  const [provider] = copilotProviderSource({
    bin: pinnedCopilotBinary(),
    env: bed.env,
    ...options,
  }).providers({});
  if (provider === undefined) {
    throw new Error("the copilot source always offers copilot");
  }
  return provider;
}

export function copilotSession(cwd: string, overrides: Partial<WorkerSession> = {}): WorkerSession {
  return {
    id: "ses_copilot",
    title: "Copilot",
    model: BYOK_MODEL,
    effort: null,
    mode: "agent",
    cwd,
    providerState: null,
    ...overrides,
  };
}

export function copilotTurn(prompt: string, cwd: string, overrides: Partial<TurnInput> = {}): TurnInput {
  return { turnId: "trn_1", prompt, model: BYOK_MODEL, effort: null, mode: "agent", cwd, ...overrides };
}

/** A worker of `provider` for a session in the testbed's folder; closed when the test finishes. */
export function startWorker(
  provider: Provider,
  bed: CliTestbed,
  session: Partial<WorkerSession> = {},
): Worker {
  const worker = provider.startWorker(copilotSession(bed.cwd, session));
  if (worker === null) {
    throw new Error(`${provider.info.id} always starts a worker`);
  }
  onTestFinished(() => worker.close());
  return worker;
}
