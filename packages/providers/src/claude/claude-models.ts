import type { ProviderInfo, ProviderModel } from "@oar/engine";
import { CLAUDE_API_NOT_CONFIGURED, CLAUDE_API_PROVIDER_ID, CLAUDE_PROVIDER_ID } from "./claude-settings";

/**
 * What `--model` takes in the pinned CLI (2.1.332): the newest model of each family, the 4.5
 * generation still served, and the CLI's family aliases, which it resolves to the newest.
 */
export const CLAUDE_MODELS: readonly ProviderModel[] = [
  { id: "claude-sonnet-5-5", default: true },
  { id: "claude-opus-5-5" },
  { id: "claude-haiku-5-5" },
  { id: "claude-fable-5-2" },
  { id: "claude-opus-4-5" },
  { id: "claude-sonnet-4-5" },
  { id: "claude-haiku-4-5" },
  { id: "sonnet" },
  { id: "opus" },
  { id: "haiku" },
  { id: "fable" },
];

/** The levels of the CLI's `--effort`. */
export const CLAUDE_EFFORTS: readonly string[] = ["low", "medium", "high", "xhigh", "max"];

// The CLI reports total_cost_usd from the tokens at the prices built into it: neither plan is billed that way.
export const CLAUDE_SUBSCRIPTION_COST_ESTIMATE =
  "Claude Code's estimate of what these tokens would cost on the API, from its own price table; the subscription is billed by its plan, not by this figure.";
export const CLAUDE_API_COST_ESTIMATE =
  "Claude Code's estimate from its own price table; Anthropic's bill for the API key may differ.";

export const CLAUDE_PROVIDER_INFO: ProviderInfo = {
  id: CLAUDE_PROVIDER_ID,
  label: "Claude (subscription)",
  models: CLAUDE_MODELS,
  efforts: CLAUDE_EFFORTS,
  usageTracked: true,
  costEstimate: CLAUDE_SUBSCRIPTION_COST_ESTIMATE,
  sessionSettings: { window: true, thinking: true },
};

/** `claude-api`'s offer: without a key it says it is not configured; its cap comes from the settings. */
export function claudeApiProviderInfo(
  apiKey: string | undefined,
  monthlyCapUsd: number | undefined,
): ProviderInfo {
  return {
    id: CLAUDE_API_PROVIDER_ID,
    label: "Claude (API key)",
    models: CLAUDE_MODELS,
    efforts: CLAUDE_EFFORTS,
    usageTracked: true,
    costEstimate: CLAUDE_API_COST_ESTIMATE,
    sessionSettings: { window: true, thinking: true },
    ...(apiKey === undefined ? { notConfigured: CLAUDE_API_NOT_CONFIGURED } : {}),
    ...(monthlyCapUsd === undefined ? {} : { monthlyCapUsd }),
  };
}
