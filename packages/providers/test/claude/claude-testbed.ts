import type { Provider, TurnInput, Worker, WorkerSession } from "@oar/engine";
import { onTestFinished } from "vitest";
import { claudeProviderSource } from "../../src";
import { claudeTestEnv, pinnedClaudeBinary } from "../../src/testing";
import { type CliTestbed, createCliTestbed } from "../cli-testbed";

// Waiting on a real CLI: it starts in well under a second here, but a loaded CI box is slower.
export const CLAUDE_TEST_TIMEOUT_MS = 60_000;

export { pinnedClaudeBinary };

export type ClaudeTestbed = CliTestbed;

/**
 * A fake Anthropic API and a throwaway home for the real CLI; removed, with any process left
 * over, when the test finishes.
 */
export function createClaudeTestbed(): Promise<ClaudeTestbed> {
  return createCliTestbed(claudeTestEnv);
}

export function findProvider(providers: readonly Provider[], id: string): Provider {
  const provider = providers.find((p) => p.info.id === id);
  if (!provider) {
    throw new Error(`no provider ${id} among ${providers.map((p) => p.info.id).join(", ")}`);
  }
  return provider;
}

export function sessionOf(cwd: string, overrides: Partial<WorkerSession> = {}): WorkerSession {
  return {
    id: "ses_claude",
    title: "Claude",
    model: "claude-sonnet-5-5",
    effort: null,
    mode: "agent",
    cwd,
    providerState: null,
    ...overrides,
  };
}

export function turnOf(prompt: string, cwd: string, overrides: Partial<TurnInput> = {}): TurnInput {
  return {
    turnId: "trn_1",
    prompt,
    model: "claude-sonnet-5-5",
    effort: null,
    mode: "agent",
    cwd,
    ...overrides,
  };
}

/** A worker of `claude-api` with `apiKey`, on the testbed's CLI and env; closed when the test finishes. */
export function startApiWorker(
  bed: ClaudeTestbed,
  options: { apiKey?: string; session?: Partial<WorkerSession> } = {},
): Worker {
  const source = claudeProviderSource({ bin: pinnedClaudeBinary(), env: bed.env });
  const provider = findProvider(
    source.providers({ "claude-api": { apiKey: options.apiKey ?? "test-key" } }),
    "claude-api",
  );
  const worker = provider.startWorker(sessionOf(bed.cwd, options.session));
  if (!worker) {
    throw new Error("claude-api always starts a worker");
  }
  onTestFinished(() => worker.close());
  return worker;
}
