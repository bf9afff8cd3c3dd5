import { type Clock, RelayError } from "@oar/core";
import type { Provider, ProviderInfo, ProviderSource } from "@oar/engine";
import { createAcpProvider } from "../acp/acp-provider";
import { agentTiming } from "../acp/acp-source";
import { resolveProgram } from "../claude/claude-binary";
import { COPILOT_EFFORTS, COPILOT_PROVIDER_ID, copilotModels } from "./copilot-models";

export interface CopilotSourceOptions {
  /** The `copilot` CLI (the app passes RELAY_COPILOT_BIN); default: `copilot` on the env's PATH. */
  readonly bin?: string | null;
  /** The environment the CLI starts from: its login, proxies and BYOK `COPILOT_PROVIDER_*` variables work. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly killGraceMs?: number;
  readonly cancelGraceMs?: number;
  /** How long the CLI may sit idle between turns before it is ended; default 10 minutes. */
  readonly idleMs?: number;
  readonly clock?: Clock;
}

export const COPILOT_LABEL = "Copilot";

export function copilotNotFoundMessage(bin: string | null | undefined): string {
  return bin
    ? `GitHub Copilot's CLI was not found at ${bin} (RELAY_COPILOT_BIN) on this relay.`
    : "GitHub Copilot's CLI (copilot) was not found on this relay: install it (npm i -g @github/copilot), or set RELAY_COPILOT_BIN.";
}

/**
 * `copilot`: the GitHub Copilot CLI as a built-in ACP agent (`copilot --acp`, DESIGN §5); the
 * session's model and effort go on its command line. Without the CLI it is listed as not configured.
 */
export function copilotProviderSource(options: CopilotSourceOptions): ProviderSource {
  const { env } = options;
  return {
    // Copilot takes no settings: its configuration is the CLI's own.
    check: () => undefined,
    providers() {
      const info: ProviderInfo = {
        id: COPILOT_PROVIDER_ID,
        label: COPILOT_LABEL,
        models: copilotModels(env.COPILOT_MODEL),
        efforts: COPILOT_EFFORTS,
        dottedModelIds: true,
        usageTracked: true,
      };
      const bin = resolveProgram("copilot", options.bin, env);
      if (bin === null) {
        const notConfigured = copilotNotFoundMessage(options.bin);
        const missing: Provider = {
          info: { ...info, notConfigured },
          startWorker() {
            throw new RelayError("REMOTE_RELAY_PROVIDER_UNAVAILABLE", notConfigured);
          },
        };
        return [missing];
      }
      return [
        createAcpProvider({
          info,
          modelsFromAgent: true,
          agent: {
            providerId: COPILOT_PROVIDER_ID,
            agentName: COPILOT_LABEL,
            argv: ({ model, effort }) => [
              bin,
              "--acp",
              "--model",
              model,
              ...(effort === "" ? [] : ["--reasoning-effort", effort]),
            ],
            env,
            ...agentTiming(options),
          },
        }),
      ];
    },
  };
}
