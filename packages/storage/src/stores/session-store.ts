import type {
  ConversationRef,
  MessageRecord,
  NewMessage,
  NewTurn,
  SessionListItem,
  SessionPatch,
  SessionRecord,
  SessionStore,
  TurnRecord,
} from "@oar/engine";
import type { SessionScope } from "@oar/schema";
import { and, asc, desc, eq, exists, inArray, isNotNull, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "../database";
import { messages, sessionGroups, sessions, turns } from "../tables";
import {
  countWhere,
  inList,
  instantParam,
  isoInstant,
  mapFirst,
  recordset,
  selectAll,
  setEach,
  toDate,
  toMs,
  toMsOrNull,
} from "./rows";

type SessionRow = typeof sessions.$inferSelect;
type MessageRow = typeof messages.$inferSelect;
type TurnRow = typeof turns.$inferSelect;

const ACTIVE_STATUSES = ["queued", "running"] as const;

export function toSessionRecord(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    title: row.title,
    provider: row.provider,
    model: row.model,
    effort: row.effort,
    mode: row.mode,
    cwd: row.cwd,
    repo: row.repo,
    branch: row.branch,
    state: row.state,
    createdBy:
      row.createdBySession === null ? null : { relay: row.createdByRelay, session: row.createdBySession },
    viaAgent: row.viaAgent,
    mayCreateSessions: row.mayCreateSessions,
    group: row.groupId === null || row.groupRole === null ? null : { id: row.groupId, role: row.groupRole },
    settings: row.settings,
    providerState: row.providerState ?? null,
    createdAt: toMs(row.createdAt),
    lastActivityAt: toMs(row.lastActivityAt),
    archivedAt: toMsOrNull(row.archivedAt),
  };
}

export function toMessageRecord(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    turnId: row.turnId,
    role: row.role,
    text: row.text,
    provenance: row.provenance ?? null,
    createdAt: toMs(row.createdAt),
  };
}

export function toTurnRecord(row: TurnRow): TurnRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    status: row.status,
    runner:
      row.runnerLease === null || row.runnerToken === null
        ? null
        : { lease: row.runnerLease, token: row.runnerToken },
    promptMessageId: row.promptMessageId,
    origin: row.origin,
    reply: row.reply,
    error: row.error,
    queuedAt: toMs(row.queuedAt),
    startedAt: toMsOrNull(row.startedAt),
    endedAt: toMsOrNull(row.endedAt),
    lastOutputAt: toMsOrNull(row.lastOutputAt),
  };
}

function toSessionValues(patch: SessionPatch): Partial<typeof sessions.$inferInsert> {
  const { lastActivityAt, ...rest } = patch;
  return lastActivityAt === undefined ? rest : { ...rest, lastActivityAt: toDate(lastActivityAt) };
}

function createdByIs(conversation: ConversationRef): SQL | undefined {
  return and(
    eq(sessions.createdBySession, conversation.session),
    conversation.relay === null
      ? isNull(sessions.createdByRelay)
      : eq(sessions.createdByRelay, conversation.relay),
  );
}

/** The sessions listSessions gives: never a deleted one; of `scope`; of the group, when one is named. */
export function listedSessions(scope: SessionScope, groupId?: string): SQL | undefined {
  return and(
    isNull(sessions.deletedAt),
    scope === "active" ? isNull(sessions.archivedAt) : undefined,
    scope === "archived" ? isNotNull(sessions.archivedAt) : undefined,
    groupId === undefined ? undefined : eq(sessions.groupId, groupId),
  );
}

export const liveSession = (id: string) => and(eq(sessions.id, id), isNull(sessions.deletedAt));

/** `… as touched(id, at)`: the rows an activity update joins on, one statement for many. */
function touchedTable(latest: ReadonlyMap<string, number>): SQL {
  return recordset(
    "touched",
    "id text, at timestamptz",
    [...latest].map(([id, at]) => ({ id, at: isoInstant(at) })),
  );
}

/** The latest of the instants given per key. */
function latestBy<T>(
  items: readonly T[],
  key: (item: T) => string,
  at: (item: T) => number,
): Map<string, number> {
  const latest = new Map<string, number>();
  for (const item of items) {
    latest.set(key(item), Math.max(latest.get(key(item)) ?? Number.NEGATIVE_INFINITY, at(item)));
  }
  return latest;
}

/**
 * Appends messages and moves their sessions' (and groups') last activity forward in one statement,
 * however many messages, sessions and groups: atomic without a transaction of its own, and one
 * round trip inside the caller's (a savepoint and three statements in turn used to be four).
 */
async function insertMessages(db: Database, inputs: readonly NewMessage[]): Promise<MessageRecord[]> {
  if (inputs.length === 0) {
    return [];
  }
  const records: MessageRecord[] = inputs.map((input) => ({
    ...input,
    turnId: input.turnId ?? null,
    provenance: input.provenance ?? null,
  }));
  const touched = latestBy(
    inputs,
    (input) => input.sessionId,
    (input) => input.createdAt,
  );
  await db.execute(sql`
    with appended as (
      insert into ${messages} (id, session_id, turn_id, role, text, provenance, created_at)
      select id, "sessionId", "turnId", role, text, provenance, "createdAt"
      from ${recordset(
        "m",
        'n int, id text, "sessionId" text, "turnId" text, role text, text text, provenance jsonb, "createdAt" timestamptz',
        records.map((record, n) => ({ ...record, n, createdAt: isoInstant(record.createdAt) })),
      )}
      order by n -- seq follows the order given, as a session's messages must
    ), active_sessions as (
      update ${sessions} set last_activity_at = greatest(${sessions.lastActivityAt}, touched.at)
      from ${touchedTable(touched)}
      where ${sessions.id} = touched.id
      returning ${sessions.groupId} as group_id, touched.at
    )
    update ${sessionGroups} set last_active_at = greatest(${sessionGroups.lastActiveAt}, active_groups.at)
    from (
      select group_id, max(at) as at from active_sessions where group_id is not null group by group_id
    ) as active_groups
    where ${sessionGroups.id} = active_groups.group_id`);
  return records;
}

async function insertTurns(db: Database, inputs: readonly NewTurn[]): Promise<TurnRecord[]> {
  if (inputs.length === 0) {
    return [];
  }
  const rows = await db
    .insert(turns)
    .values(
      inputs.map((input) => ({
        id: input.id,
        sessionId: input.sessionId,
        status: "queued" as const,
        promptMessageId: input.promptMessageId ?? null,
        origin: input.origin,
        queuedAt: toDate(input.queuedAt),
      })),
    )
    .returning();
  const byId = new Map(rows.map((row) => [row.id, toTurnRecord(row)]));
  return inputs.map((input) => {
    const turn = byId.get(input.id);
    if (!turn) {
      throw new Error(`Inserting turn ${input.id} returned no row.`);
    }
    return turn;
  });
}

export function createSessionStore(db: Database): SessionStore {
  const getSession = async (id: string) =>
    mapFirst(await db.select().from(sessions).where(liveSession(id)), toSessionRecord);

  const patchSession = async (id: string, values: Partial<typeof sessions.$inferInsert>) => {
    if (Object.keys(values).length === 0) {
      return getSession(id);
    }
    return mapFirst(
      await db.update(sessions).set(values).where(liveSession(id)).returning(),
      toSessionRecord,
    );
  };

  return {
    async createSession(input) {
      const [row] = await db
        .insert(sessions)
        .values({
          id: input.id,
          title: input.title,
          provider: input.provider,
          model: input.model,
          effort: input.effort ?? null,
          mode: input.mode ?? "agent",
          cwd: input.cwd ?? null,
          repo: input.repo ?? null,
          branch: input.branch ?? null,
          createdByRelay: input.createdBy?.relay ?? null,
          createdBySession: input.createdBy?.session ?? null,
          viaAgent: input.viaAgent ?? null,
          mayCreateSessions: input.mayCreateSessions ?? false,
          settings: input.settings ?? {},
          createdAt: toDate(input.createdAt),
          lastActivityAt: toDate(input.createdAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting session ${input.id} returned no row.`);
      }
      return toSessionRecord(row);
    },

    getSession,

    async getSessions(ids) {
      if (ids.length === 0) {
        return [];
      }
      const rows = await selectAll(
        db,
        sessions,
        sql`where ${inList(sessions.id, [...new Set(ids)])} and ${sessions.deletedAt} is null`,
      );
      return rows.map(toSessionRecord);
    },

    async listSessions({ scope = "active", groupId, limit } = {}): Promise<SessionListItem[]> {
      const messageCount = countWhere(db, messages, eq(messages.sessionId, sessions.id));
      const query = db
        .select({ session: sessions, messageCount })
        .from(sessions)
        .where(listedSessions(scope, groupId))
        .orderBy(desc(sessions.lastActivityAt), desc(sessions.createdAt), asc(sessions.id))
        .$dynamic();
      const rows = await (limit === undefined ? query : query.limit(limit));
      return rows.map((row) => ({ ...toSessionRecord(row.session), messageCount: row.messageCount }));
    },

    async updateSession(id, patch) {
      return patchSession(id, toSessionValues(patch));
    },

    async lockSession(id) {
      await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, id)).for("no key update");
    },

    async archiveSession({ id, at }) {
      return patchSession(id, { archivedAt: toDate(at) });
    },

    async unarchiveSession(id) {
      return patchSession(id, { archivedAt: null });
    },

    async deleteSession({ id, at }) {
      return (await patchSession(id, { deletedAt: toDate(at) })) !== null;
    },

    async appendMessage(input) {
      const [message] = await insertMessages(db, [input]);
      return message as MessageRecord;
    },

    async appendMessages(inputs) {
      return insertMessages(db, inputs);
    },

    async reviseMessages(revisions) {
      await setEach(
        db,
        messages,
        messages.id,
        messages.text,
        revisions.map((r) => ({ key: r.id, value: r.text })),
      );
    },

    async listMessages(sessionId, { last } = {}) {
      if (last === undefined) {
        const rows = await db
          .select()
          .from(messages)
          .where(eq(messages.sessionId, sessionId))
          .orderBy(asc(messages.seq));
        return rows.map(toMessageRecord);
      }
      const rows = await db
        .select()
        .from(messages)
        .where(eq(messages.sessionId, sessionId))
        .orderBy(desc(messages.seq))
        .limit(Math.max(0, last));
      return rows.reverse().map(toMessageRecord);
    },

    async enqueueTurn(input) {
      const [turn] = await insertTurns(db, [input]);
      return turn as TurnRecord;
    },

    async enqueueTurns(inputs) {
      return insertTurns(db, inputs);
    },

    async markTurnOutput({ id, at }) {
      const stamp = instantParam(at);
      await db
        .update(turns)
        .set({ lastOutputAt: sql`greatest(coalesce(${turns.lastOutputAt}, ${stamp}), ${stamp})` })
        .where(and(eq(turns.id, id), eq(turns.status, "running")));
    },

    async getTurn(id) {
      return mapFirst(await db.select().from(turns).where(eq(turns.id, id)), toTurnRecord);
    },

    async claimNextTurn({ sessionId, now, runner }) {
      return db.transaction(async (tx) => {
        // Claimers of one session queue on its row; once through, each sees the previous claim
        // (READ COMMITTED takes a new snapshot per statement). A partial unique index backs this up.
        const locked = await tx
          .select({ id: sessions.id })
          .from(sessions)
          .where(eq(sessions.id, sessionId))
          .for("no key update");
        if (locked.length === 0) {
          return null;
        }
        const [busy] = await tx
          .select({ id: turns.id })
          .from(turns)
          .where(and(eq(turns.sessionId, sessionId), eq(turns.status, "running")))
          .limit(1);
        if (busy) {
          return null;
        }
        const [next] = await tx
          .select({ id: turns.id })
          .from(turns)
          .where(and(eq(turns.sessionId, sessionId), eq(turns.status, "queued")))
          .orderBy(asc(turns.seq))
          .limit(1);
        if (!next) {
          return null;
        }
        const claimed = await tx
          .update(turns)
          .set({
            status: "running",
            startedAt: toDate(now),
            runnerLease: runner?.lease ?? null,
            runnerToken: runner?.token ?? null,
          })
          .where(and(eq(turns.id, next.id), eq(turns.status, "queued")))
          .returning();
        return mapFirst(claimed, toTurnRecord);
      });
    },

    async finishTurn({ turnId, status, reply, error, endedAt, replyMessageId, runner }) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(turns)
          .set({ status, reply: reply ?? null, error: error ?? null, endedAt: toDate(endedAt) })
          .where(
            and(
              eq(turns.id, turnId),
              runner === undefined
                ? inArray(turns.status, [...ACTIVE_STATUSES])
                : and(
                    eq(turns.status, "running"),
                    eq(turns.runnerLease, runner.lease),
                    eq(turns.runnerToken, runner.token),
                  ),
            ),
          )
          .returning();
        if (!row) {
          return null;
        }
        if (replyMessageId !== undefined && reply) {
          await insertMessages(tx, [
            {
              id: replyMessageId,
              sessionId: row.sessionId,
              turnId,
              role: "assistant",
              text: reply,
              createdAt: endedAt,
            },
          ]);
        }
        return toTurnRecord(row);
      });
    },

    async listActiveTurns({ sessionId } = {}) {
      const rows = await db
        .select()
        .from(turns)
        .where(
          and(
            inArray(turns.status, [...ACTIVE_STATUSES]),
            sessionId === undefined ? undefined : eq(turns.sessionId, sessionId),
          ),
        )
        .orderBy(asc(turns.seq));
      return rows.map(toTurnRecord);
    },

    async countActiveSessionsCreatedBy(conversation) {
      const busy = db
        .select({ one: sql`1` })
        .from(turns)
        .where(and(eq(turns.sessionId, sessions.id), inArray(turns.status, [...ACTIVE_STATUSES])));
      const [row] = await db
        .select({ count: sql<number>`count(*)::int`.mapWith(Number) })
        .from(sessions)
        .where(and(createdByIs(conversation), isNull(sessions.deletedAt), exists(busy)));
      return row?.count ?? 0;
    },

    async failRunningTurns({ error, endedAt, runner }) {
      const rows = await db
        .update(turns)
        .set({ status: "error", error, endedAt: toDate(endedAt) })
        .where(
          and(
            eq(turns.status, "running"),
            runner === undefined
              ? undefined
              : runner === null
                ? isNull(turns.runnerLease)
                : eq(turns.runnerLease, runner),
          ),
        )
        .returning();
      return rows.map(toTurnRecord);
    },

    async getMessage(id) {
      return mapFirst(await db.select().from(messages).where(eq(messages.id, id)), toMessageRecord);
    },

    async findTurnByPromptMessage(messageId) {
      const rows = await db.select().from(turns).where(eq(turns.promptMessageId, messageId)).limit(1);
      return mapFirst(rows, toTurnRecord);
    },
  };
}
