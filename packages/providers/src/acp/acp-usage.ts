import type { TurnUsage } from "@oar/engine";

/** An ACP session's running totals, as the agent reports them since it opened the session. */
export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
}

export const NO_USAGE: UsageTotals = { inputTokens: 0, outputTokens: 0, costUsd: 0 };

const count = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined;

/** The totals of a prompt's `usage` (ACP: "total … across all turns" of the session); `undefined` without one. */
export function readPromptUsage(
  response: unknown,
): Pick<UsageTotals, "inputTokens" | "outputTokens"> | undefined {
  const usage = (response as { usage?: unknown } | null)?.usage;
  if (usage === null || typeof usage !== "object") {
    return undefined;
  }
  const { inputTokens, outputTokens } = usage as Record<string, unknown>;
  const input = count(inputTokens);
  const output = count(outputTokens);
  return input === undefined && output === undefined
    ? undefined
    : { inputTokens: input ?? 0, outputTokens: output ?? 0 };
}

/** A `usage_update`'s cost in USD (the session's running cost); other currencies are not added up. */
export function readUpdateCostUsd(update: {
  readonly cost?: { amount: number; currency: string } | null;
}): number | undefined {
  const cost = update.cost;
  return cost != null && cost.currency.toUpperCase() === "USD" ? count(cost.amount) : undefined;
}

/**
 * What a turn adds to the month: the totals' growth since the last report. A total below the last
 * one means the agent started counting over (a new process reopened the session): it counts whole.
 */
export function usageAdded(last: UsageTotals, now: UsageTotals): TurnUsage {
  const grown = (before: number, after: number) => (after >= before ? after - before : after);
  const costUsd = grown(last.costUsd, now.costUsd);
  return {
    inputTokens: grown(last.inputTokens, now.inputTokens),
    outputTokens: grown(last.outputTokens, now.outputTokens),
    ...(costUsd > 0 ? { costUsd } : {}),
  };
}
