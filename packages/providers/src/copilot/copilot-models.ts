import type { ProviderModel } from "@oar/engine";

export const COPILOT_PROVIDER_ID = "copilot";

/**
 * What `--model` takes in the pinned CLI (1.0.102, `copilot help config`), in its order: Copilot's
 * ids write versions with dots (R-MDL-05). The first is the relay's default.
 */
export const COPILOT_MODEL_IDS: readonly string[] = [
  "claude-sonnet-5.5",
  "claude-sonnet-5",
  "claude-fable-5.1",
  "claude-fable-5",
  "claude-opus-5.5",
  "claude-opus-5",
  "claude-opus-4.8",
  "claude-opus-4.8-fast",
  "claude-sonnet-4.6",
  "claude-haiku-5.5",
  "claude-haiku-4.5",
  "gpt-6.1-sol",
  "gpt-6-sol",
  "gpt-6-luna",
  "gpt-6-astra",
  "gpt-5.6-sol",
  "gpt-5.6-terra",
  "gpt-5.6-luna",
  "gpt-5.5",
  "gpt-5.4",
  "gpt-5.4-mini",
  "gpt-5.3-codex",
  "gpt-5-mini",
  "mai-code-1.1-flash",
  "gemini-4-argon",
  "gemini-3.8-flash",
  "gemini-3.7-flash",
  "grok-4.7",
  "grok-4.6",
  "grok-4.5",
  "kimi-k3",
];

/** The levels of the CLI's `--reasoning-effort`. */
export const COPILOT_EFFORTS: readonly string[] = [
  "none",
  "minimal",
  "low",
  "medium",
  "high",
  "xhigh",
  "max",
];

/**
 * Copilot's models: the owner's BYOK model (COPILOT_MODEL) first when it is set, as the default,
 * then the pinned CLI's list.
 */
export function copilotModels(byokModel: string | undefined): ProviderModel[] {
  const ids =
    byokModel === undefined || byokModel === "" ? COPILOT_MODEL_IDS : [byokModel, ...COPILOT_MODEL_IDS];
  return [...new Set(ids)].map((id, index) => (index === 0 ? { id, default: true } : { id }));
}
