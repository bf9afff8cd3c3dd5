import { RelayError } from "@oar/core";
import { moveSessionFiles } from "../actions/session-place";
import { recordSessionGone } from "../outbox/outbox";
import { continuedInLine, summarizeConversation } from "./compaction-summary";
import type { OwnerSessionDetail } from "./owner-api";
import { type OwnerContext, ownerChange, providerOf, requireSession } from "./owner-context";
import { sessionDetail } from "./session-views";

/**
 * POST /v1/owner/sessions/:id/compact: a new conversation continues this one from a summary of
 * it. In one change: the new session, its first turn (the summary), the schedules of both kinds
 * (R-SCHEND-02), the non-blocking questions (R-WDR-04) and the subscriptions the old one held
 * moved to it, and the old one archived with a line saying where it went. A conversation at work
 * (a turn queued or running) is refused: its turn would be cut from what the summary says.
 */
export async function compactOwnerSession(
  ctx: OwnerContext,
  id: string,
): Promise<OwnerSessionDetail & { readonly compactedFrom: string }> {
  const { deps } = ctx;
  const old = await requireSession(ctx, id);
  if (old.archivedAt !== null) {
    throw new RelayError(
      "REMOTE_RELAY_INVALID_INPUT",
      `Session ${id} is archived; write in it to bring it back before compacting it. Nothing was changed.`,
    );
  }
  const provider = providerOf(ctx, old);
  const busy = await deps.stores.sessions.listActiveTurns({ sessionId: id });
  if (busy.length > 0 || ctx.runtime.inFlight(id) !== null) {
    throw new RelayError(
      "REMOTE_RELAY_BUSY",
      `Session ${id} has a turn queued or running; wait for it to end (or stop it) before compacting. Nothing was changed.`,
    );
  }
  const messages = await deps.stores.sessions.listMessages(id);
  const now = deps.clock.now();
  const startsTurn = !provider.info.drivenFromOutside;
  const created = await ownerChange(ctx, async (tx) => {
    const { stores, ids, relay } = tx.deps;
    const session = await stores.sessions.createSession({
      id: ids.next("session"),
      title: old.title,
      provider: old.provider,
      model: old.model,
      effort: old.effort,
      mode: old.mode,
      cwd: old.cwd,
      repo: old.repo,
      branch: old.branch,
      createdBy: old.createdBy,
      viaAgent: old.viaAgent,
      mayCreateSessions: old.mayCreateSessions,
      settings: old.settings,
      createdAt: now,
    });
    if (old.group !== null) {
      await stores.groups.setSessionGroup({
        sessionId: session.id,
        groupId: old.group.id,
        role: "member",
        at: now,
      });
    }
    const moved = {
      schedules: await stores.schedules.moveSchedules({ from: id, to: session.id }),
      questions: await stores.questions.moveInboxQuestions({ from: id, to: session.id }),
      subscriptions: (
        await stores.subscriptions.transferSubscriptions({ from: id, to: session.id, watcherRelay: null })
      ).length,
    };
    const summaryId = ids.next("message");
    const turnId = startsTurn ? ids.next("turn") : null;
    await stores.sessions.appendMessage({
      id: summaryId,
      sessionId: session.id,
      turnId,
      role: "relay",
      text: summarizeConversation(old, messages, moved),
      createdAt: now,
    });
    if (turnId !== null) {
      await stores.sessions.enqueueTurn({
        id: turnId,
        sessionId: session.id,
        promptMessageId: summaryId,
        origin: { kind: "owner" },
        queuedAt: now,
      });
    }
    await stores.sessions.appendMessage({
      id: ids.next("message"),
      sessionId: id,
      role: "relay",
      text: continuedInLine(session),
      createdAt: now,
    });
    const archived = await stores.sessions.archiveSession({ id, at: now });
    if (archived === null) {
      throw new RelayError(
        "REMOTE_RELAY_NOT_FOUND",
        `Session ${id} was deleted meanwhile. Nothing was changed.`,
      );
    }
    await recordSessionGone({ stores, ids, relayName: relay.name }, archived, "archived", now);
    return session;
  });
  await ctx.runtime.endTasks(id);
  await moveSessionFiles(deps, ctx.runtime, { from: id, to: created.id, provider: old.provider });
  if (startsTurn) {
    ctx.runtime.kick(created.id);
  }
  ctx.live.scheduleChanges.notify();
  return { ...(await sessionDetail(ctx, created.id)), compactedFrom: id };
}
