import type { EngineStores } from "../ports/engine-stores";
import type { TurnUsage } from "../ports/provider";
import type { SettingsStore } from "../ports/settings-store";

/** What a provider consumed in one calendar month (UTC). */
export interface MonthUsage {
  readonly costUsd: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly turns: number;
}

const EMPTY: MonthUsage = { costUsd: 0, inputTokens: 0, outputTokens: 0, turns: 0 };

/** The month an instant falls in, and when the next one starts (caps reset then). */
export function monthOf(at: number): { readonly key: string; readonly resetsAt: number } {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return {
    key: `${year}-${String(month + 1).padStart(2, "0")}`,
    resetsAt: Date.UTC(year, month + 1, 1),
  };
}

// Usage lives with the settings (one small row per provider and month): no table of its own for
// a handful of counters written once per turn.
function usageKey(provider: string, at: number): string {
  return `usage.${provider}.${monthOf(at).key}`;
}

function asUsage(value: unknown): MonthUsage {
  if (value === null || typeof value !== "object") {
    return EMPTY;
  }
  const stored = value as Partial<Record<keyof MonthUsage, unknown>>;
  const number = (field: keyof MonthUsage) => {
    const n = stored[field];
    return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0;
  };
  return {
    costUsd: number("costUsd"),
    inputTokens: number("inputTokens"),
    outputTokens: number("outputTokens"),
    turns: number("turns"),
  };
}

export async function monthUsage(store: SettingsStore, provider: string, at: number): Promise<MonthUsage> {
  return asUsage(await store.getSetting(usageKey(provider, at)));
}

/**
 * Adds a turn's cost and tokens to its provider's month, as one increment in the store: relay
 * processes reporting at the same instant all count (DESIGN §9).
 */
export async function addUsage(
  stores: Pick<EngineStores, "settings">,
  provider: string,
  at: number,
  turn: TurnUsage,
): Promise<void> {
  const clean = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n > 0 ? n : 0);
  const added: Record<keyof MonthUsage, number> = {
    costUsd: clean(turn.costUsd),
    inputTokens: clean(turn.inputTokens),
    outputTokens: clean(turn.outputTokens),
    turns: 1,
  };
  await stores.settings.addToSetting(usageKey(provider, at), added);
}
