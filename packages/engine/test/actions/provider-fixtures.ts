import type { ProviderInfo } from "../../src/ports/provider";

/** Copilot as the model checks see it: dotted ids (R-MDL-05). */
export const copilot: ProviderInfo = {
  id: "copilot",
  label: "Copilot",
  models: [{ id: "gpt-5.4", default: true }, { id: "claude-opus-5.5" }, { id: "gpt-4.1" }],
  efforts: [],
  dottedModelIds: true,
};

const CLAUDE_MODELS = [
  { id: "claude-sonnet-5-5", default: true },
  { id: "claude-opus-5-5" },
  { id: "sonnet" },
];

/** Claude's two billings: two providers, one family (R-MDL-06). */
export const claude: ProviderInfo = {
  id: "claude",
  label: "Claude (subscription)",
  models: CLAUDE_MODELS,
  efforts: ["low", "high"],
};
export const claudeApi: ProviderInfo = { ...claude, id: "claude-api", label: "Claude (API key)" };

/** A third family that lists one of Claude's ids too. */
export const opencode: ProviderInfo = {
  id: "opencode",
  label: "OpenCode",
  models: [{ id: "qwen-3", default: true }, { id: "claude-opus-5-5" }],
  efforts: [],
};
