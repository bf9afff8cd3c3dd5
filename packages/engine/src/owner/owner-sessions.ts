import { RelayError } from "@oar/core";
import type { OwnerCreateSessionBody, OwnerPatchSessionBody, SessionScope } from "@oar/schema";
import { checkFolder } from "../actions/folders";
import { findOneGroup } from "../actions/groups";
import { checkEffort, checkModel } from "../actions/model-check";
import { defaultModel, UNLISTED_MODEL } from "../actions/providers";
import { discardSessionFiles, placeSession, refuseFolderOfRepository } from "../actions/session-place";
import { recordSessionGone, recordTurnEnded } from "../outbox/outbox";
import type { MessageRecord, SessionPatch, SessionRecord, TurnRecord } from "../ports/session-store";
import type { OwnerSessionDetail, OwnerSessionView } from "./owner-api";
import { type OwnerContext, ownerChange, providerOf, requireSession } from "./owner-context";
import { chooseProvider } from "./provider-choice";
import { sessionDetail, sessionView, watchingBadges } from "./session-views";
import { unlockMentionedRelays } from "./unlock-mentions";

const TITLE_FROM_TEXT_MAX = 60;

/** A conversation without a title is named after the first line of its first message. */
function titleFor(body: OwnerCreateSessionBody): string {
  if (body.title !== undefined) {
    return body.title.trim();
  }
  const firstLine = body.text
    ?.split(/\r?\n/)
    .find((line) => line.trim() !== "")
    ?.trim();
  if (firstLine === undefined) {
    return "New session";
  }
  return firstLine.length > TITLE_FROM_TEXT_MAX
    ? `${firstLine.slice(0, TITLE_FROM_TEXT_MAX - 1)}…`
    : firstLine;
}

/**
 * Puts the session in the group, in the verb's transaction. A group dissolved between the lookup
 * and now (R-CGRP-07 c) refuses the whole verb, so nothing of it stays.
 */
async function joinOwnerGroup(
  tx: OwnerContext,
  member: { readonly sessionId: string; readonly groupId: string; readonly at: number },
  nothing: string,
): Promise<void> {
  const placed = await tx.deps.stores.groups.setSessionGroup({ ...member, role: "member" });
  if (!placed.ok) {
    throw new RelayError(
      "REMOTE_RELAY_UNKNOWN_GROUP",
      `The session group ${member.groupId} was dissolved just now. ${nothing}`,
    );
  }
}

/** POST /v1/owner/sessions: a conversation the owner started; every check runs before anything is written. */
export async function createOwnerSession(
  ctx: OwnerContext,
  body: OwnerCreateSessionBody,
): Promise<OwnerSessionDetail> {
  const { deps } = ctx;
  const provider = chooseProvider(deps.providers, body.provider);
  if (body.model !== undefined) {
    checkModel({
      provider: provider.info,
      model: body.model,
      relayName: deps.relay.name,
      providers: deps.providers,
      creates: true,
      nothing: "Nothing was created.",
    });
  }
  const model = body.model ?? defaultModel(provider.info) ?? UNLISTED_MODEL;
  const place = placeSession(deps, provider.info, body, null, "Nothing was created.");
  const group =
    body.group === undefined ? null : await findOneGroup(deps, body.group, "No session was created.");
  const now = deps.clock.now();
  // The session, its group and its first message are one change: a failure leaves no session.
  const { session, turn } = await ownerChange(ctx, async (tx) => {
    const session = await tx.deps.stores.sessions.createSession({
      id: deps.ids.next("session"),
      title: titleFor(body),
      provider: provider.info.id,
      model,
      mode: body.mode ?? "agent",
      ...place,
      createdAt: now,
    });
    if (group) {
      await joinOwnerGroup(
        tx,
        { sessionId: session.id, groupId: group.id, at: now },
        "No session was created.",
      );
    }
    const posted = body.text === undefined ? null : await postText(tx, session, body.text);
    return { session, turn: posted?.turn ?? null };
  });
  kickTurn(ctx, turn);
  return sessionDetail(ctx, session.id);
}

export async function listOwnerSessions(
  ctx: OwnerContext,
  scope: SessionScope = "active",
): Promise<OwnerSessionView[]> {
  const items = await ctx.deps.stores.sessions.listSessions({ scope });
  const badges = await watchingBadges(
    ctx,
    items.map((item) => item.id),
  );
  return items.map((item) => sessionView(item, badges));
}

/**
 * A user message, written on the transaction's stores: it unlocks the paired relays it mentions
 * (R-LOCK-01(a)). Relay-run sessions get a turn, which the caller starts once the change is
 * committed (kickTurn); a session driven from outside (DESIGN §5) only gets the message, which
 * its agent reads with read_session.
 */
async function postText(
  tx: OwnerContext,
  session: SessionRecord,
  text: string,
): Promise<{ message: MessageRecord; turn: TurnRecord | null }> {
  const { sessions } = tx.deps.stores;
  // Before the turn starts, so its agent finds the relays the owner just named open.
  await unlockMentionedRelays(tx, session.id, text);
  if (providerOf(tx, session).info.drivenFromOutside) {
    const message = await sessions.appendMessage({
      id: tx.deps.ids.next("message"),
      sessionId: session.id,
      role: "user",
      text,
      createdAt: tx.deps.clock.now(),
    });
    return { message, turn: null };
  }
  const { messageId, turn } = await tx.runtime.queuePrompt(tx.deps.stores, {
    sessionId: session.id,
    text,
    origin: { kind: "owner" },
  });
  const message = (await sessions.getMessage(messageId)) ?? {
    id: messageId,
    sessionId: session.id,
    turnId: turn.id,
    role: "user",
    text,
    provenance: null,
    createdAt: turn.queuedAt,
  };
  return { message, turn };
}

/** Starts the queued turn's session queue, after the change that queued it is committed. */
function kickTurn(ctx: OwnerContext, turn: TurnRecord | null): void {
  if (turn !== null) {
    ctx.runtime.kick(turn.sessionId);
  }
}

/** POST /v1/owner/sessions/:id/messages. Writing in an archived conversation brings it back. */
export async function postOwnerMessage(
  ctx: OwnerContext,
  id: string,
  text: string,
): Promise<{ message: MessageRecord; turn: TurnRecord | null }> {
  const found = await requireSession(ctx, id);
  providerOf(ctx, found);
  const posted = await ownerChange(ctx, async (tx) => {
    const { sessions, loopCounters } = tx.deps.stores;
    const session = found.archivedAt === null ? found : ((await sessions.unarchiveSession(id)) ?? found);
    // The owner wrote: the anti-loop count starts again (GAP-04 (f), R-SCH-17); answers to questions don't (R-QANS-05).
    await loopCounters.resetLoopCounter(id);
    // R-SCH-19: the firings its schedules hold go out as soon as the owner writes there.
    await tx.deps.stores.schedules.recheckHeld({ createdBy: id, at: tx.deps.clock.now() });
    return postText(tx, session, text);
  });
  kickTurn(ctx, posted.turn);
  ctx.live.scheduleChanges.notify();
  return posted;
}

/** PATCH /v1/owner/sessions/:id: the whole body is checked before anything changes. */
export async function patchOwnerSession(
  ctx: OwnerContext,
  id: string,
  body: OwnerPatchSessionBody,
): Promise<OwnerSessionDetail> {
  const { deps } = ctx;
  const session = await requireSession(ctx, id);
  const patch: { -readonly [K in keyof SessionPatch]: SessionPatch[K] } = {};
  if (body.title !== undefined) {
    patch.title = body.title.trim();
  }
  if (body.mode !== undefined) {
    patch.mode = body.mode;
  }
  if (body.mayCreateSessions !== undefined) {
    patch.mayCreateSessions = body.mayCreateSessions;
  }
  if (body.model !== undefined || body.effort !== undefined) {
    const provider = providerOf(ctx, session);
    const nothing = "Nothing was changed.";
    if (body.model !== undefined) {
      checkModel({
        provider: provider.info,
        model: body.model,
        relayName: deps.relay.name,
        providers: deps.providers,
        nothing,
      });
      patch.model = body.model;
    }
    if (body.effort !== undefined) {
      checkEffort({ provider: provider.info, effort: body.effort, nothing });
      patch.effort = body.effort;
    }
  }
  const groupTarget =
    typeof body.group === "string" ? await findOneGroup(deps, body.group, "Nothing was changed.") : null;
  if (body.cwd !== undefined) {
    refuseFolderOfRepository(providerOf(ctx, session).info, session, "Nothing was changed.");
  }
  const cwd = body.cwd === undefined ? undefined : checkFolder(deps, body.cwd, "Nothing was changed.");
  const moves = cwd !== undefined && cwd !== session.cwd;
  if (moves && (await deps.stores.sessions.listActiveTurns({ sessionId: id })).length > 0) {
    throw new RelayError(
      "REMOTE_RELAY_BUSY",
      "The session cannot move to another folder now: a turn is queued or running there. Nothing was changed.",
    );
  }
  if (moves) {
    patch.cwd = cwd;
  }

  const now = deps.clock.now();
  // The settings and the group move are one change: a refused group leaves the settings as they were.
  await ownerChange(ctx, async (tx) => {
    const { sessions, groups } = tx.deps.stores;
    if (Object.keys(patch).length > 0) {
      await sessions.updateSession(id, patch);
    }
    if (groupTarget && groupTarget.id !== session.group?.id) {
      await joinOwnerGroup(tx, { sessionId: id, groupId: groupTarget.id, at: now }, "Nothing was changed.");
    } else if (body.group === null && session.group !== null) {
      await groups.clearSessionGroup({ sessionId: id, at: now });
    }
  });
  if (moves) {
    // The worker was started in the old folder: the next turn starts a new one in the new folder.
    await ctx.runtime.killWorker(id);
  }
  return sessionDetail(ctx, id);
}

export async function archiveOwnerSession(ctx: OwnerContext, id: string): Promise<SessionRecord> {
  const at = ctx.deps.clock.now();
  return ownerChange(ctx, async (tx) => {
    const { stores, ids, relay } = tx.deps;
    const before = await stores.sessions.getSession(id);
    const archived = await stores.sessions.archiveSession({ id, at });
    if (!archived) {
      throw new RelayError("REMOTE_RELAY_NOT_FOUND", `No session ${id} on this relay.`);
    }
    if (before?.archivedAt === null) {
      await recordSessionGone({ stores, ids, relayName: relay.name }, archived, "archived", at);
    }
    return archived;
  }).then(async (archived) => {
    // An archived session runs nothing in the background, and keeps no clone.
    await ctx.runtime.endTasks(id);
    await discardSessionFiles(ctx.deps, ctx.runtime, archived);
    return archived;
  });
}

/** Kill session: the worker restarts (its running turn ends as stopped), R-NAME-04. */
export async function killOwnerSession(ctx: OwnerContext, id: string): Promise<void> {
  await requireSession(ctx, id);
  await ctx.runtime.killWorker(id);
}

/**
 * Deletes the session in one change with what must go with it: its queued turns never run, its
 * agent tokens stop working (a token of a deleted session must not outlive it, DESIGN §7), its
 * agent's call log goes, and an agent's group left empty goes. Its running turn stops after.
 */
export async function deleteOwnerSession(ctx: OwnerContext, id: string): Promise<void> {
  const session = await requireSession(ctx, id);
  const now = ctx.deps.clock.now();
  await ownerChange(ctx, async (tx) => {
    const { sessions, groups, tokens } = tx.deps.stores;
    const writer = { stores: tx.deps.stores, ids: tx.deps.ids, relayName: tx.deps.relay.name };
    await sessions.deleteSession({ id, at: now });
    for (const turn of await sessions.listActiveTurns({ sessionId: id })) {
      if (turn.status === "queued") {
        const ended = await sessions.finishTurn({
          turnId: turn.id,
          status: "stopped",
          error: "session deleted",
          endedAt: now,
        });
        if (ended) {
          await recordTurnEnded(writer, ended, session.title);
        }
      }
    }
    await recordSessionGone(writer, session, "deleted", now);
    await tokens.revokeTokensOf({ kind: "agent", subject: id, at: now });
    await tx.deps.stores.toolCalls.deleteToolCallsOf(id);
    if (session.group) {
      await groups.deleteGroupIfEmpty({ id: session.group.id, at: now });
    }
  });
  ctx.live.liveCallers.delete(id);
  await ctx.runtime.killWorker(id);
  await discardSessionFiles(ctx.deps, ctx.runtime, session);
}
