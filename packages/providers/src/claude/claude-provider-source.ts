import type { Provider, ProviderSource } from "@oar/engine";
import { resolveClaudeBinary } from "./claude-binary";
import { CLAUDE_PROVIDER_INFO, claudeApiProviderInfo } from "./claude-models";
import {
  CLAUDE_API_NOT_CONFIGURED,
  CLAUDE_API_PROVIDER_ID,
  checkClaudeEntry,
  readClaudeApiEntry,
} from "./claude-settings";
import { createClaudeWorker } from "./claude-worker";

export interface ClaudeProviderSourceOptions {
  /** The `claude` CLI (the app passes RELAY_CLAUDE_BIN); default: `claude` on the env's PATH. */
  readonly bin?: string | null;
  /** The environment the CLI inherits; default: the relay's own. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * `claude` (the CLI's own login) and `claude-api` (the owner's API key, with a monthly cap),
 * both running Claude Code (DESIGN §5). Neither is offered when the CLI is not installed.
 */
export function claudeProviderSource(options: ClaudeProviderSourceOptions = {}): ProviderSource {
  // biome-ignore lint/style/noProcessEnv: the relay's environment is only the default; the app passes its own.
  const env = options.env ?? process.env;
  return {
    check: checkClaudeEntry,
    providers(entries) {
      const bin = resolveClaudeBinary(options.bin, env);
      if (bin === null) {
        return [];
      }
      const api = readClaudeApiEntry(entries[CLAUDE_API_PROVIDER_ID]);
      const subscription: Provider = {
        info: CLAUDE_PROVIDER_INFO,
        startWorker: (session) =>
          createClaudeWorker({ bin, env, billing: { kind: "subscription" }, session }),
      };
      const apiKey: Provider = {
        info: claudeApiProviderInfo(api?.apiKey, api?.monthlyCapUsd),
        startWorker: (session) =>
          createClaudeWorker({
            bin,
            env,
            billing: api === undefined ? null : { kind: "apiKey", apiKey: api.apiKey },
            notConfigured: CLAUDE_API_NOT_CONFIGURED,
            session,
          }),
      };
      return [subscription, apiKey];
    },
  };
}
