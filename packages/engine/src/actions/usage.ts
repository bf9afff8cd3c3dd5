import { toIso } from "@oar/core";
import type { ProviderUsage } from "@oar/schema";
import type { ProviderInfo } from "../ports/provider";
import { monthOf, monthUsage } from "../usage/provider-usage";
import type { ActionContext, ActionSuccess } from "./context";
import { plural } from "./summary";

async function usageOf(ctx: ActionContext, info: ProviderInfo): Promise<ProviderUsage> {
  if (info.notConfigured !== undefined) {
    return { provider: info.id, status: "not_configured" };
  }
  if (!info.usageTracked) {
    return { provider: info.id, status: "not_tracked" };
  }
  const now = ctx.deps.clock.now();
  const month = monthOf(now);
  const used = await monthUsage(ctx.deps.stores.settings, info.id, now);
  const consumed = Math.round(used.costUsd * 1e6) / 1e6;
  const tokens = { inputTokens: Math.round(used.inputTokens), outputTokens: Math.round(used.outputTokens) };
  const cap = info.monthlyCapUsd;
  if (cap === undefined) {
    return {
      provider: info.id,
      status: "ok",
      unit: "usd",
      consumed,
      ...tokens,
      resetAt: toIso(month.resetsAt),
      ...estimates(info, ["consumed"]),
    };
  }
  return {
    provider: info.id,
    status: consumed >= cap ? "exhausted" : "ok",
    unit: "usd",
    consumed,
    allocation: cap,
    remaining: Math.max(0, Math.round((cap - consumed) * 1e6) / 1e6),
    utilization: Math.round((consumed / cap) * 1e4) / 1e4,
    ...tokens,
    resetAt: toIso(month.resetsAt),
    ...estimates(info, ["consumed", "remaining", "utilization"]),
  };
}

/** The counters that come from an estimated cost, and how it is made; nothing when the cost is exact. */
function estimates(
  info: ProviderInfo,
  fromCost: NonNullable<ProviderUsage["estimated"]>,
): Pick<ProviderUsage, "estimated" | "estimateNote"> {
  return info.costEstimate === undefined ? {} : { estimated: fromCost, estimateNote: info.costEstimate };
}

/**
 * §10: a status per provider: the month's spend in USD and tokens of the providers that report
 * them, against a monthly cap when the owner set one (`claude-api`), with the figures that are
 * estimates named (`estimated`, `estimateNote`); not configured or not tracked otherwise
 * (R-USAGE-03). Nothing about accounts is ever included (R-USAGE-04).
 */
export async function usage(ctx: ActionContext): Promise<ActionSuccess> {
  const providers = await Promise.all(ctx.deps.providers.map(({ info }) => usageOf(ctx, info)));
  const tracked = providers.filter(
    (entry) => entry.status !== "not_tracked" && entry.status !== "not_configured",
  );
  return {
    details: `${plural(providers.length, "provider")}, ${tracked.length} tracked`,
    fields: { providers },
  };
}
