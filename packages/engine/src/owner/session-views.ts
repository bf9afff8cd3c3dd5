import type { OwnerSessionDetail, OwnerSessionView } from "../engine";
import type { MessageRecord, SessionListItem, SessionRecord, TurnRecord } from "../ports/session-store";
import { type OwnerContext, requireSession } from "./owner-context";

/** R-UI-03: `via agent · "title"`, where title names the conversation whose agent started it. */
export function viaAgentBadge(session: SessionRecord): string | null {
  return session.viaAgent === null ? null : `via agent · "${session.viaAgent}"`;
}

// Watching badges (R-UI-06/07) come with subscriptions; until then nothing watches or is watched.
export function sessionView(item: SessionListItem): OwnerSessionView {
  return { ...item, viaAgentBadge: viaAgentBadge(item), watched: false, watching: 0 };
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
    ...sessionView({ ...session, messageCount: messages.length }),
    messages,
    turns: await turnsOf(ctx, id, messages),
    inFlight: ctx.runtime.inFlight(id),
    pendingQuestions: await ctx.runtime.pendingQuestions(id),
    // Background tasks come with the tasks issue.
    tasks: [],
  };
}
