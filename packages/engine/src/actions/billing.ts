import type { CardDetails } from "@oar/permissions";
import type { ProviderInfo } from "../ports/provider";
import type { SessionRecord } from "../ports/session-store";
import { monthUsage } from "../usage/provider-usage";
import type { ActionContext } from "./context";
import { findProvider } from "./providers";
import { refuse } from "./refusal";

/** The two billings of a Claude session (DESIGN GAP-01, §14.1): subscription and API key. */
const BILLINGS: Readonly<Record<string, "subscription" | "api_key">> = {
  claude: "subscription",
  "claude-api": "api_key",
};

/** The relay's own codes carried in `remoteCode` (R-BILL-04). */
export const CLAUDE_API_CAP_REACHED = "CLAUDE_API_CAP_REACHED";
/** The same refusal for another provider with a cap (grok, deepseek): R-BILL-04's code names Claude API. */
export const MONTHLY_CAP_REACHED = "MONTHLY_CAP_REACHED";
export const PROVIDER_NOT_CONFIGURED = "PROVIDER_NOT_CONFIGURED";

/**
 * A provider that cannot take a prompt now: not configured (an API key missing), or its monthly
 * cap reached (R-BILL-04, R-BILL-06). `remedy` says what the agent can do instead.
 */
export async function refuseUnavailable(
  ctx: ActionContext,
  provider: ProviderInfo,
  remedy: string,
  nothing: string,
): Promise<void> {
  const relayName = ctx.deps.relay.name;
  if (provider.notConfigured !== undefined) {
    refuse("REMOTE_RELAY_PROVIDER_UNAVAILABLE", `${provider.notConfigured} ${remedy}${nothing}`, {
      remoteCode: PROVIDER_NOT_CONFIGURED,
    });
  }
  const cap = provider.monthlyCapUsd;
  if (cap === undefined) {
    return;
  }
  const now = ctx.deps.clock.now();
  const spent = (await monthUsage(ctx.deps.stores.settings, provider.id, now)).costUsd;
  if (spent >= cap) {
    refuse(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `${provider.label} on relay "${relayName}" reached its monthly cap of ${cap} USD (${spent.toFixed(2)} USD spent this month). ${remedy}${nothing}`,
      { remoteCode: provider.id === "claude-api" ? CLAUDE_API_CAP_REACHED : MONTHLY_CAP_REACHED },
    );
  }
}

/**
 * §14.1: `send` with `provider` moves a Claude session between its subscription and the API key.
 * Returns the provider the prompt will run on and the card's billing line; refuses, changing
 * nothing, when the other billing is not offered, not configured or capped (R-BILL-02…04).
 */
export async function billingSwitch(
  ctx: ActionContext,
  target: SessionRecord,
  current: ProviderInfo,
  wanted: string | undefined,
  nothing: string,
): Promise<{ readonly provider: ProviderInfo; readonly details?: CardDetails }> {
  const relayName = ctx.deps.relay.name;
  if (wanted === undefined || wanted === target.provider) {
    await refuseUnavailable(
      ctx,
      current,
      BILLINGS[current.id] === "api_key"
        ? 'Send with provider "claude" to move the session to the subscription, or ask the owner to raise the cap. '
        : "",
      nothing,
    );
    return { provider: current };
  }
  const to = BILLINGS[wanted];
  if (BILLINGS[target.provider] === undefined || to === undefined) {
    refuse(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `Relay "${relayName}" cannot switch session ${target.id} from provider "${target.provider}" to "${wanted}": only a Claude session moves between "claude" (subscription) and "claude-api" (API key). ${nothing}`,
    );
  }
  const next = findProvider(ctx.deps, wanted)?.info;
  if (next === undefined) {
    refuse(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `Relay "${relayName}" has no "${wanted}" provider (Claude Code is not set up there), so session ${target.id} cannot switch billing. ${nothing}`,
      { remoteCode: PROVIDER_NOT_CONFIGURED },
    );
  }
  await refuseUnavailable(ctx, next, "", nothing);
  return { provider: next, details: { billingSwitch: to } };
}
