import type * as acp from "@agentclientprotocol/sdk";
import type { Mode } from "@oar/schema";

/** What an opened ACP session offers: its modes and its config options (model, effort, mode…). */
export interface SessionOffer {
  readonly modes: acp.SessionModeState | null;
  readonly configOptions: readonly acp.SessionConfigOption[];
}

export function offerOf(response: {
  readonly modes?: acp.SessionModeState | null;
  readonly configOptions?: acp.SessionConfigOption[] | null;
}): SessionOffer {
  return { modes: response.modes ?? null, configOptions: response.configOptions ?? [] };
}

// Agents name modes by id (`plan`) or, like Copilot, by the protocol's URL (`…/session-modes#plan`).
const lastSegment = (id: string) => (id.split(/[#/]/).at(-1) ?? id).toLowerCase();
const DEFAULT_MODE_NAMES = ["agent", "default", "code"];

function modeNamed(modes: readonly acp.SessionMode[], names: readonly string[]): acp.SessionMode | undefined {
  return modes.find(
    (mode) => names.includes(lastSegment(mode.id)) || names.includes(mode.name.trim().toLowerCase()),
  );
}

/**
 * The agent's mode for the relay's: `plan` → its plan mode; `agent` and `ask` → its default (the
 * relay's cards gate `ask`). `undefined` when the agent offers no such mode: nothing is set.
 */
export function agentModeFor(mode: Mode, modes: readonly acp.SessionMode[]): string | undefined {
  if (modes.length === 0) {
    return undefined;
  }
  if (mode === "plan") {
    return modeNamed(modes, ["plan"])?.id;
  }
  return (modeNamed(modes, DEFAULT_MODE_NAMES) ?? modes[0])?.id;
}

export function selectOptionValues(option: acp.SessionConfigOption): string[] {
  if (option.type !== "select") {
    return [];
  }
  return option.options.flatMap((entry) =>
    "group" in entry ? entry.options.map((inner) => inner.value) : [entry.value],
  );
}

/** The select option of a category (`model`, `thought_level`, `mode`), if the agent offers one. */
export function configOptionOf(
  offer: SessionOffer,
  category: string,
): (acp.SessionConfigOption & { type: "select" }) | undefined {
  return offer.configOptions.find(
    (option): option is acp.SessionConfigOption & { type: "select" } =>
      option.type === "select" && option.category === category,
  );
}

/** The config changes that make the session run `value` for `category`; none when not offered or already so. */
export function configChange(
  offer: SessionOffer,
  category: string,
  value: string | null,
): { readonly configId: string; readonly value: string } | undefined {
  const option = configOptionOf(offer, category);
  if (option === undefined || value === null || option.currentValue === value) {
    return undefined;
  }
  return selectOptionValues(option).includes(value) ? { configId: option.id, value } : undefined;
}
