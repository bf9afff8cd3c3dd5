import type { Provider, ProviderInfo } from "../ports/provider";
import { editDistance } from "./edit-distance";
import { type ForeignModel, foreignModel } from "./foreign-model";
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

interface ModelCheck {
  readonly provider: ProviderInfo;
  readonly model: string;
  readonly relayName: string;
  /** The relay's providers: a dotted-id provider names the one whose id it was given (R-MDL-06). */
  readonly providers: readonly Pick<Provider, "info">[];
  /** A new session is being made: another family's id gets that family's code (R-MDL-06). */
  readonly creates?: boolean;
  /** The closing sentence: `Nothing was sent.`, `Nothing was created.`, `Nothing was changed.` */
  readonly nothing: string;
}

/**
 * R-MDL-06/07: a dotted-id provider (Copilot) refuses another provider's id, naming that
 * provider, and stays the provider: the agent picks the closest match or, creating, the other
 * provider. The outer code stays REMOTE_RELAY_UNKNOWN_MODEL (the id is not in this list, R-MDL-02);
 * the relay's own code travels in `remoteCode` (R-ERR-02).
 */
function refuseForeign(
  check: ModelCheck,
  foreign: ForeignModel,
  details: { readonly suggestions: string[]; readonly models: string[] },
): never {
  const { provider, model, relayName, nothing } = check;
  const { label } = provider;
  const dots = dotted(model) === model ? "" : `; ${label}'s ids use dots`;
  const [closest] = details.suggestions;
  const hint = closest === undefined ? "" : ` Did you mean '${closest}'?`;
  const startWith = foreign.startWith.map((id) => `"${id}"`).join(" or ");
  const other =
    check.creates === true && startWith !== ""
      ? ` To use '${model}', create the session with provider ${startWith}.`
      : "";
  refuse(
    "REMOTE_RELAY_UNKNOWN_MODEL",
    `Model '${model}' is not available for ${label} on relay "${relayName}": '${model}' is a model of ${foreign.owners}${dots}.${hint} Valid ids: ${details.models.join(", ")}.${other} ${nothing}`,
    { ...details, remoteCode: foreign.remoteCode },
  );
}

/**
 * Checks `model` against the provider's list (R-MDL-01): unknown → REMOTE_RELAY_UNKNOWN_MODEL with
 * `suggestions` and `models` (R-MDL-02, R-MDL-03), another provider's id on a dotted-id provider
 * → the same with a `remoteCode` (R-MDL-06). Without a list the model passes unchecked and the
 * returned `modelNote` says so (R-MDL-09).
 */
export function checkModel(check: ModelCheck): { readonly modelNote?: string } {
  const { provider, model, relayName, nothing } = check;
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
  const foreign =
    provider.dottedModelIds === true
      ? foreignModel({ provider, model, providers: check.providers, creates: check.creates === true })
      : null;
  if (foreign !== null) {
    refuseForeign(check, foreign, { suggestions, models: valid });
  }
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
