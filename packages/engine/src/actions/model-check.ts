import type { ProviderInfo } from "../ports/provider";
import { editDistance } from "./edit-distance";
import { refuse } from "./refusal";

const MAX_SUGGESTIONS = 3;

/** Copilot-style ids write version numbers with a dot: `gpt-5-4` → `gpt-5.4` (R-MDL-05). */
function dotted(model: string): string {
  return model.replace(/(\d)-(\d)/g, "$1.$2");
}

/** Close matches, closest first; the dotted spelling first where the provider uses dots (R-MDL-05). */
export function suggestModels(info: ProviderInfo, model: string, valid: readonly string[]): string[] {
  const wanted = model.toLowerCase();
  const near = valid
    .map((id) => ({ id, distance: editDistance(wanted, id.toLowerCase()) }))
    .filter(({ id, distance }) => distance <= Math.max(2, Math.floor(Math.max(id.length, wanted.length) / 3)))
    .sort((a, b) => a.distance - b.distance || a.id.localeCompare(b.id))
    .map(({ id }) => id);
  const dottedForm = info.dottedModelIds
    ? valid.find((id) => id.toLowerCase() === dotted(wanted))
    : undefined;
  const ordered = dottedForm ? [dottedForm, ...near.filter((id) => id !== dottedForm)] : near;
  return ordered.slice(0, MAX_SUGGESTIONS);
}

/**
 * Checks `model` against the provider's list (R-MDL-01): unknown → REMOTE_RELAY_UNKNOWN_MODEL with
 * `suggestions` and `models` (R-MDL-02, R-MDL-03). Without a list the model passes unchecked and
 * the returned `modelNote` says so (R-MDL-09).
 */
export function checkModel(input: {
  readonly provider: ProviderInfo;
  readonly model: string;
  readonly relayName: string;
  /** The closing sentence: `Nothing was sent.`, `Nothing was created.`, `Nothing was changed.` */
  readonly nothing: string;
}): { readonly modelNote?: string } {
  const { provider, model, relayName, nothing } = input;
  if (provider.models === null) {
    return {
      modelNote: `Relay "${relayName}" has no model list for ${provider.label} yet, so the model '${model}' was not checked.`,
    };
  }
  const valid = provider.models.map((entry) => entry.id);
  if (valid.includes(model)) {
    return {};
  }
  const suggestions = suggestModels(provider, model, valid);
  const hint = suggestions[0] === undefined ? "" : `; did you mean '${suggestions[0]}'?`;
  const closing = hint === "" ? "." : "";
  refuse(
    "REMOTE_RELAY_UNKNOWN_MODEL",
    `Unknown model '${model}' for ${provider.label} on relay "${relayName}"${hint}${closing} Valid ids: ${valid.join(", ")}. ${nothing}`,
    { suggestions, models: valid },
  );
}

/** Checks `effort` against the provider's reasoning efforts (R-RINFO-01, R-UPD-13). */
export function checkEffort(input: {
  readonly provider: ProviderInfo;
  readonly effort: string;
  readonly nothing: string;
}): void {
  const { provider, effort, nothing } = input;
  if (provider.efforts.includes(effort)) {
    return;
  }
  const offered =
    provider.efforts.length === 0
      ? `${provider.label} has no reasoning efforts; leave effort out`
      : `effort must be one of ${provider.label}'s efforts: ${provider.efforts.join(", ")}`;
  refuse("REMOTE_RELAY_INVALID_INPUT", `${offered} (got "${effort}"). ${nothing}`);
}
