import { watches } from "@oar/scheduler";
import type { OwnerSessionDetail, OwnerSessionView } from "../engine";
import type { MessageRecord, SessionListItem, SessionRecord, TurnRecord } from "../ports/session-store";
import { type OwnerContext, requireSession } from "./owner-context";

/** R-UI-03: `via agent · "title"`, where title names the conversation whose agent started it. */
export function viaAgentBadge(session: SessionRecord): string | null {
  return session.viaAgent === null ? null : `via agent · "${session.viaAgent}"`;
}

/** Who watches whom now: the `watched` badge (R-UI-07) and `watching N sessions` (R-UI-06). */
export interface WatchingBadges {
  watched(sessionId: string): boolean;
  /** How many distinct live sessions the conversation watches. */
  watching(sessionId: string): number;
}

export async function watchingBadges(ctx: OwnerContext): Promise<WatchingBadges> {
  const { stores } = ctx.deps;
  const active = await stores.subscriptions.listActiveSubscriptions();
  if (active.length === 0) {
    return { watched: () => false, watching: () => 0 };
  }
  const live = (await stores.sessions.listSessions({ scope: "active" })).map((session) => session.id);
  const watchedBy = new Map<string, Set<string>>();
  for (const subscription of active) {
    const set = watchedBy.get(subscription.watcher) ?? new Set<string>();
    for (const id of live) {
      if (watches(subscription, id)) {
        set.add(id);
      }
    }
    watchedBy.set(subscription.watcher, set);
  }
  const watchedIds = new Set([...watchedBy.values()].flatMap((set) => [...set]));
  return {
    watched: (id) => watchedIds.has(id),
    watching: (id) => watchedBy.get(id)?.size ?? 0,
  };
}

export function sessionView(item: SessionListItem, badges: WatchingBadges): OwnerSessionView {
  return {
    ...item,
    viaAgentBadge: viaAgentBadge(item),
    watched: badges.watched(item.id),
    watching: badges.watching(item.id),
  };
}

/** Every turn of the session, oldest first: those its messages started or answer, and those still queued or running. */
async function turnsOf(
  ctx: OwnerContext,
  sessionId: string,
  messages: readonly MessageRecord[],
): Promise<TurnRecord[]> {
  const { sessions } = ctx.deps.stores;
  const byId = new Map<string, TurnRecord>();
  for (const turn of await sessions.listActiveTurns({ sessionId })) {
    byId.set(turn.id, turn);
  }
  for (const message of messages) {
    if (message.turnId !== null && byId.has(message.turnId)) {
      continue;
    }
    const turn =
      message.turnId !== null
        ? await sessions.getTurn(message.turnId)
        : message.role === "user"
          ? await ctx.runtime.turnOfMessage(message.id)
          : null;
    if (turn && turn.sessionId === sessionId) {
      byId.set(turn.id, turn);
    }
  }
  return [...byId.values()].sort((a, b) => a.queuedAt - b.queuedAt);
}

export async function sessionDetail(ctx: OwnerContext, id: string): Promise<OwnerSessionDetail> {
  const session = await requireSession(ctx, id);
  const messages = await ctx.deps.stores.sessions.listMessages(id);
  return {
    ...sessionView({ ...session, messageCount: messages.length }, await watchingBadges(ctx)),
    messages,
    turns: await turnsOf(ctx, id, messages),
    inFlight: ctx.runtime.inFlight(id),
    pendingQuestions: await ctx.runtime.pendingQuestions(id),
    // Background tasks come with the tasks issue.
    tasks: [],
  };
}
