import { join } from "node:path";
import type { Provider, ProviderInfo } from "@oar/engine";
import { CLAUDE_EFFORTS, CLAUDE_MODELS, CLAUDE_SUBSCRIPTION_COST_ESTIMATE } from "../claude/claude-models";
import { createClaudeWorker } from "../claude/claude-worker";
import { CLAUDE_CLOUD_PROVIDER_ID, type CloudEntry, repositoryUrl } from "./cloud-settings";
import { ensureWorkspace, moveWorkspace, removeWorkspace } from "./workspace";

/**
 * Claude Code's own tools that change the clone: run without a card outside plan mode, since the
 * session works on its own copy of the repository and not on the owner's files.
 */
export const CLOUD_TOOLS_WITHOUT_CARD: readonly string[] = [
  "Bash",
  "Edit",
  "MultiEdit",
  "Write",
  "NotebookEdit",
];

export const CLAUDE_CLOUD_INFO: ProviderInfo = {
  id: CLAUDE_CLOUD_PROVIDER_ID,
  label: "Claude Cloud (on a repository)",
  models: CLAUDE_MODELS,
  efforts: CLAUDE_EFFORTS,
  usageTracked: true,
  costEstimate: CLAUDE_SUBSCRIPTION_COST_ESTIMATE,
  worksOn: "repository",
  sessionSettings: { window: true, thinking: true },
};

export interface CloudProviderOptions {
  readonly bin: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where sessions' clones go (`<data dir>/workspaces`): never inside the owner's folders. */
  readonly workspaceDir: string;
  readonly entry: CloudEntry;
}

/**
 * `claude-cloud` (R-CRE-07, DESIGN §5): Claude Code, as `claude` runs it (its login, models and
 * usage), on the session's own clone of its repository, made before the first turn.
 */
export function createCloudProvider(options: CloudProviderOptions): Provider {
  const dirOf = (sessionId: string) => join(options.workspaceDir, sessionId);
  return {
    info: CLAUDE_CLOUD_INFO,
    startWorker(session) {
      const { repo } = session;
      return createClaudeWorker({
        bin: options.bin,
        env: options.env,
        billing: { kind: "subscription" },
        session,
        toolsWithoutCard: CLOUD_TOOLS_WITHOUT_CARD,
        async prepareCwd(signal) {
          if (repo === null || repo === undefined) {
            throw new Error(
              `Session ${session.id} has no repository: a claude-cloud session is started with repo (owner/name or a URL).`,
            );
          }
          const url = repositoryUrl(repo, options.entry.gitBaseUrl);
          try {
            return await ensureWorkspace({
              dir: dirOf(session.id),
              url,
              branch: session.branch ?? null,
              env: options.env,
              signal,
            });
          } catch (error) {
            const why = error instanceof Error ? error.message : String(error);
            throw new Error(`Could not make this session's clone of ${repo} (${url}): ${why}`);
          }
        },
      });
    },
    discardSession: (sessionId) => removeWorkspace(dirOf(sessionId)),
    moveSessionFiles: (from, to) => moveWorkspace(dirOf(from), dirOf(to)),
  };
}
