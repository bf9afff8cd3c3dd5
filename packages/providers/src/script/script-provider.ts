import type { Provider, ProviderInfo } from "@oar/engine";
import { runScriptTurn } from "./run-script";

export const SCRIPT_PROVIDER_INFO: ProviderInfo = {
  id: "script",
  label: "Script (built-in)",
  models: [{ id: "script-1", default: true }, { id: "script-2" }],
  efforts: ["low", "medium", "high"],
  usageTracked: false,
};

/**
 * The built-in, deterministic agent (DESIGN §5): no account, no network. Its workers hold no
 * state between turns, so a killed worker loses nothing.
 */
export function createScriptProvider(): Provider {
  return {
    info: SCRIPT_PROVIDER_INFO,
    startWorker() {
      return {
        runTurn: runScriptTurn,
        async close() {
          // Nothing to free: a running turn is aborted by the relay through its signal.
        },
      };
    },
  };
}
