import type { ProviderUsage } from "@oar/schema";
import type { ActionContext, ActionSuccess } from "./context";
import { plural } from "./summary";

/**
 * §10: a status per provider. No built-in provider keeps counters, so each says it is not tracked
 * (R-USAGE-03); nothing about accounts is ever included (R-USAGE-04).
 */
export async function usage(ctx: ActionContext): Promise<ActionSuccess> {
  const providers: ProviderUsage[] = ctx.deps.providers.map(({ info }) => ({
    provider: info.id,
    status: info.usageTracked ? "ok" : "not_tracked",
  }));
  const tracked = providers.filter((entry) => entry.status !== "not_tracked").length;
  return {
    details: `${plural(providers.length, "provider")}, ${tracked} tracked`,
    fields: { providers },
  };
}
