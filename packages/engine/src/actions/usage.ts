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
  const cap = info.monthlyCapUsd;
  if (cap === undefined) {
    return { provider: info.id, status: "ok", unit: "usd", consumed, resetAt: toIso(month.resetsAt) };
  }
  return {
    provider: info.id,
    status: consumed >= cap ? "exhausted" : "ok",
    unit: "usd",
    consumed,
    allocation: cap,
    remaining: Math.max(0, Math.round((cap - consumed) * 1e6) / 1e6),
    utilization: Math.round((consumed / cap) * 1e4) / 1e4,
    resetAt: toIso(month.resetsAt),
  };
}

/**
 * §10: a status per provider: the month's spend in USD of the providers that report it, against
 * a monthly cap when the owner set one (`claude-api`); not configured or not tracked otherwise
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
