import { type SubscriptionRecord, watches } from "@oar/scheduler";
import type { EngineStores } from "../ports/engine-stores";

/** The live sessions a subscription watches now: its list, or every active session but the excluded and its own (R-SUB-06, R-FEW-18). */
export async function watchedSessionIds(
  stores: Pick<EngineStores, "sessions">,
  subscription: SubscriptionRecord,
): Promise<string[]> {
  if (subscription.scope === "list") {
    return [...subscription.sessions];
  }
  const sessions = await stores.sessions.listSessions({ scope: "active" });
  return sessions.map((session) => session.id).filter((id) => watches(subscription, id));
}
