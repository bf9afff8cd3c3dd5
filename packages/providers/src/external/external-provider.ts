import type { Provider, ProviderInfo } from "@oar/engine";

export const EXTERNAL_PROVIDER_INFO: ProviderInfo = {
  id: "external",
  label: "External (MCP client)",
  models: [{ id: "external", default: true }],
  efforts: [],
  drivenFromOutside: true,
  usageTracked: false,
};

/**
 * A conversation whose agent is any MCP client outside the relay, holding the session's agent
 * token (DESIGN §5). The relay runs no worker for it, so it takes no prompts.
 */
export function createExternalProvider(): Provider {
  return {
    info: EXTERNAL_PROVIDER_INFO,
    startWorker: () => null,
  };
}
