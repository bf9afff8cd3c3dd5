import type { Provider, ProviderInfo, ProviderModel } from "@oar/engine";
import { type AcpAgentReports, type AcpAgentSpec, createAcpWorker } from "./acp-worker";

// A failed sign-in is shown for this long: a login made meanwhile is then tried by the next turn.
const SIGNED_OUT_SHOWN_MS = 60_000;

export interface AcpProviderOptions {
  /** The offer before the agent says what it has: `models` null passes any model unchecked (R-MDL-09). */
  readonly info: ProviderInfo;
  /** The models the agent offers (its `model` config option) replace `info.models` when this is set. */
  readonly modelsFromAgent: boolean;
  readonly agent: Omit<AcpAgentSpec, "report">;
}

/**
 * A provider driving an ACP agent (DESIGN §5). Its offer follows what the agents report: the
 * models they offer, and "not signed in" (as `notConfigured`) after one said so.
 */
export function createAcpProvider(options: AcpProviderOptions): Provider {
  let offered: readonly ProviderModel[] | undefined;
  let signedOut: { readonly message: string; readonly at: number } | undefined;
  const report: AcpAgentReports = {
    modelsOffered(models) {
      if (options.modelsFromAgent && models.length > 0) {
        offered = models.map((id, index) => (index === 0 ? { id, default: true } : { id }));
      }
    },
    signedOut(message) {
      // Real time, not the relay's clock: this bounds how long a stale failure is shown.
      signedOut = { message, at: Date.now() };
    },
    signedIn() {
      signedOut = undefined;
    },
  };
  const spec: AcpAgentSpec = { ...options.agent, report };
  return {
    get info(): ProviderInfo {
      const stillOut = signedOut !== undefined && Date.now() - signedOut.at < SIGNED_OUT_SHOWN_MS;
      return {
        ...options.info,
        ...(offered === undefined ? {} : { models: offered }),
        ...(stillOut && signedOut !== undefined ? { notConfigured: signedOut.message } : {}),
      };
    },
    startWorker: (session) => createAcpWorker(spec, session),
  };
}
