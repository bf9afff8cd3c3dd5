import { RelayError } from "@oar/core";
import type { Provider, ProviderSource } from "@oar/engine";
import { CLAUDE_CLOUD_INFO, createCloudProvider } from "../claude-cloud/cloud-provider";
import { CLAUDE_CLOUD_PROVIDER_ID, checkCloudEntry, readCloudEntry } from "../claude-cloud/cloud-settings";
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
  /** The environment the CLI starts from: the composition root passes the relay's, without its secrets. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Where `claude-cloud` sessions' clones go (the app passes `<data dir>/workspaces`); without
   * it `claude-cloud` is listed as not configured.
   */
  readonly workspaceDir?: string;
}

const NO_WORKSPACE =
  "Claude Cloud has no workspace on this relay (the relay was started without a data directory for its clones).";

export function claudeNotFoundMessage(bin: string | null | undefined): string {
  return bin
    ? `Claude Code's CLI was not found at ${bin} (RELAY_CLAUDE_BIN) on this relay.`
    : "Claude Code's CLI (claude) was not found on this relay: install it, or set RELAY_CLAUDE_BIN.";
}

function notInstalled(bin: string | null | undefined): Provider[] {
  const notConfigured = claudeNotFoundMessage(bin);
  return [CLAUDE_PROVIDER_INFO, claudeApiProviderInfo(undefined, undefined), CLAUDE_CLOUD_INFO].map(
    (info) => ({
      info: { ...info, notConfigured },
      startWorker() {
        throw new RelayError("REMOTE_RELAY_PROVIDER_UNAVAILABLE", notConfigured);
      },
    }),
  );
}

/**
 * `claude` (the CLI's own login), `claude-api` (the owner's API key, with a monthly cap) and
 * `claude-cloud` (the CLI's login, on a clone of a repository), all running Claude Code (DESIGN
 * §5). Without the CLI all are listed as not configured.
 */
export function claudeProviderSource(options: ClaudeProviderSourceOptions): ProviderSource {
  const { env } = options;
  return {
    check: (id, entry) => checkClaudeEntry(id, entry) ?? checkCloudEntry(id, entry),
    providers(entries) {
      const bin = resolveClaudeBinary(options.bin, env);
      if (bin === null) {
        // Offered, but saying why nothing runs: agents and the owner see what is missing.
        return notInstalled(options.bin);
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
      const cloud: Provider =
        options.workspaceDir === undefined
          ? {
              info: { ...CLAUDE_CLOUD_INFO, notConfigured: NO_WORKSPACE },
              startWorker() {
                throw new RelayError("REMOTE_RELAY_PROVIDER_UNAVAILABLE", NO_WORKSPACE);
              },
            }
          : createCloudProvider({
              bin,
              env,
              workspaceDir: options.workspaceDir,
              entry: readCloudEntry(entries[CLAUDE_CLOUD_PROVIDER_ID]),
            });
      return [subscription, apiKey, cloud];
    },
  };
}
