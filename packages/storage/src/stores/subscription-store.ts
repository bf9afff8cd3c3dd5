import type { SubscriptionRecord, SubscriptionStore } from "@oar/scheduler";
import { and, asc, count, eq, gte, isNotNull, isNull, lte, min, or, sql } from "drizzle-orm";
import type { Database } from "../database";
import { subscriptions } from "../tables";
import { inList, instantParam, mapFirst, selectAll, textArray, toDate, toMs, toMsOrNull } from "./rows";

type SubscriptionRow = typeof subscriptions.$inferSelect;

function toSubscriptionRecord(row: SubscriptionRow): SubscriptionRecord {
  return {
    id: row.id,
    watcher: row.watcher,
    watcherRelay: row.watcherRelay,
    relay: row.relay,
    remoteId: row.remoteSubscriptionId,
    remoteCursor: row.remoteCursor,
    linkLostAt: toMsOrNull(row.linkLostAt),
    remoteEndedAt: toMsOrNull(row.remoteEndedAt),
    scope: row.scope,
    sessions: row.sessions,
    exclude: row.exclude,
    events: row.events ?? null,
    once: row.once,
    match: row.match,
    stalledMinutes: row.stalledMinutes,
    heartbeatMinutes: row.heartbeatMinutes,
    digestMinutes: row.digestMinutes,
    quietHours: row.quietHours ?? null,
    createdAt: toMs(row.createdAt),
    lastDigestAt: toMsOrNull(row.lastDigestAt),
    nextTickAt: toMsOrNull(row.nextTickAt),
    endedAt: toMsOrNull(row.endedAt),
    endReason: row.endReason,
  };
}

const ACTIVE = isNull(subscriptions.endedAt);

/** The ids of changed rows, oldest subscription first (RETURNING gives them in no set order). */
function idsInOrder(rows: readonly { id: string; seq: number }[]): string[] {
  return [...rows].sort((a, b) => a.seq - b.seq).map((row) => row.id);
}

/** `sessions @> '["<id>"]'`: a `list` subscription naming the session (the GIN index answers it). */
function names(sessionId: string) {
  return sql`${subscriptions.sessions} @> ${JSON.stringify([sessionId])}::jsonb`;
}

/**
 * Up to this many sessions, each is looked up in the `sessions` GIN index (routing's case: the
 * sessions of a batch); past it, one scan checks every list against them all (the owner's list
 * of a thousand sessions: a thousand index probes OR'ed took Postgres about 3 s).
 */
const FEW_SESSIONS = 32;

function namesAny(sessionIds: readonly string[]) {
  return sql`exists (select 1 from jsonb_array_elements_text(${subscriptions.sessions}) as named(id)
                     where named.id = any(${textArray(sessionIds)}::text[]))`;
}

export function createSubscriptionStore(db: Database): SubscriptionStore {
  const changed = { id: subscriptions.id, seq: subscriptions.seq };

  return {
    async createSubscription(input) {
      const [row] = await db
        .insert(subscriptions)
        .values({
          id: input.id,
          watcher: input.watcher,
          watcherRelay: input.watcherRelay ?? null,
          relay: input.relay ?? null,
          remoteSubscriptionId: input.remoteId ?? null,
          scope: input.scope,
          sessions: [...input.sessions],
          exclude: [...input.exclude],
          events: input.events === null ? null : [...input.events],
          once: input.once,
          match: input.match,
          stalledMinutes: input.stalledMinutes,
          heartbeatMinutes: input.heartbeatMinutes,
          digestMinutes: input.digestMinutes,
          quietHours: input.quietHours,
          createdAt: toDate(input.createdAt),
          nextTickAt: input.nextTickAt === null ? null : toDate(input.nextTickAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting subscription ${input.id} returned no row.`);
      }
      return toSubscriptionRecord(row);
    },

    async getSubscription(id) {
      return mapFirst(
        await db.select().from(subscriptions).where(eq(subscriptions.id, id)),
        toSubscriptionRecord,
      );
    },

    async getSubscriptions(ids) {
      if (ids.length === 0) {
        return [];
      }
      const rows = await selectAll(
        db,
        subscriptions,
        sql`where ${inList(subscriptions.id, [...new Set(ids)])}`,
      );
      return rows.map(toSubscriptionRecord);
    },

    async listSubscriptions({ watcher, endedSince }) {
      const rows = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.watcher, watcher),
            endedSince === null ? ACTIVE : or(ACTIVE, gte(subscriptions.endedAt, toDate(endedSince))),
          ),
        )
        .orderBy(asc(subscriptions.seq));
      return rows.map(toSubscriptionRecord);
    },

    async countActiveSubscriptions(watcher) {
      const [row] = await db
        .select({ n: count() })
        .from(subscriptions)
        .where(and(eq(subscriptions.watcher, watcher), ACTIVE));
      return row?.n ?? 0;
    },

    async listSubscriptionsWatching(sessionIds) {
      if (sessionIds.length === 0) {
        return [];
      }
      const unique = [...new Set(sessionIds)];
      const where = and(
        ACTIVE,
        isNull(subscriptions.relay),
        or(
          eq(subscriptions.scope, "all"),
          ...(unique.length > FEW_SESSIONS ? [namesAny(unique)] : unique.map(names)),
        ),
      );
      const rows = await selectAll(db, subscriptions, sql`where ${where} order by ${subscriptions.seq}`);
      return rows.map(toSubscriptionRecord);
    },

    async listActiveSubscriptionsOf(watchers) {
      if (watchers.length === 0) {
        return [];
      }
      const where = and(ACTIVE, inList(subscriptions.watcher, watchers));
      const rows = await selectAll(db, subscriptions, sql`where ${where} order by ${subscriptions.seq}`);
      return rows.map(toSubscriptionRecord);
    },

    async endSubscriptions({ ids, reason, at }) {
      if (ids.length === 0) {
        return [];
      }
      const rows = await db
        .update(subscriptions)
        .set({ endedAt: toDate(at), endReason: reason })
        .where(and(inList(subscriptions.id, ids), ACTIVE))
        .returning(changed);
      return idsInOrder(rows);
    },

    async forgetSession({ sessionId, at }) {
      return db.transaction(async (tx) => {
        // Those it watched from end first; their lists are history and keep the session.
        const watched = await tx
          .update(subscriptions)
          .set({ endedAt: toDate(at), endReason: "watcher_archived" })
          .where(and(eq(subscriptions.watcher, sessionId), ACTIVE))
          .returning(changed);
        // `jsonb - text` removes the string from the array; a list left empty ends (GAP-17).
        const remaining = sql`${subscriptions.sessions} - ${sessionId}::text`;
        const emptied = sql`(${remaining}) = '[]'::jsonb`;
        const listed = await tx
          .update(subscriptions)
          .set({
            sessions: remaining,
            endedAt: sql`case when ${emptied} then ${instantParam(at)} end`,
            endReason: sql`case when ${emptied} then 'archived' end`,
          })
          .where(and(eq(subscriptions.scope, "list"), ACTIVE, names(sessionId)))
          .returning({ ...changed, endedAt: subscriptions.endedAt });
        return idsInOrder([...watched, ...listed.filter((row) => row.endedAt !== null)]);
      });
    },

    async transferSubscriptions({ from, to, watcherRelay, mirrorsOf }) {
      const rows = await db
        .update(subscriptions)
        .set({ watcher: to })
        .where(
          and(
            eq(subscriptions.watcher, from),
            ACTIVE,
            watcherRelay === null
              ? isNull(subscriptions.watcherRelay)
              : eq(subscriptions.watcherRelay, watcherRelay),
            mirrorsOf === undefined ? isNull(subscriptions.relay) : eq(subscriptions.relay, mirrorsOf),
          ),
        )
        .returning(changed);
      return idsInOrder(rows);
    },

    async claimDueTicks({ now, limit }) {
      if (limit <= 0) {
        return [];
      }
      const rows = await db
        .select()
        .from(subscriptions)
        .where(and(ACTIVE, isNotNull(subscriptions.nextTickAt), lte(subscriptions.nextTickAt, toDate(now))))
        .orderBy(asc(subscriptions.nextTickAt), asc(subscriptions.seq))
        .limit(limit)
        .for("update", { skipLocked: true });
      return rows.map(toSubscriptionRecord);
    },

    async advanceTicks({ ids, at }) {
      if (ids.length === 0) {
        return;
      }
      const stamp = instantParam(at);
      await db
        .update(subscriptions)
        .set({ nextTickAt: sql`least(coalesce(${subscriptions.nextTickAt}, ${stamp}), ${stamp})` })
        .where(and(inList(subscriptions.id, ids), ACTIVE));
    },

    async setTiming(id, { lastDigestAt, nextTickAt }) {
      const set = {
        ...(lastDigestAt === undefined
          ? {}
          : { lastDigestAt: lastDigestAt === null ? null : toDate(lastDigestAt) }),
        ...(nextTickAt === undefined ? {} : { nextTickAt: nextTickAt === null ? null : toDate(nextTickAt) }),
      };
      if (Object.keys(set).length === 0) {
        return;
      }
      await db.update(subscriptions).set(set).where(eq(subscriptions.id, id));
    },

    async listMirrors(options = {}) {
      const rows = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            ACTIVE,
            options.relay === undefined
              ? isNotNull(subscriptions.relay)
              : eq(subscriptions.relay, options.relay),
          ),
        )
        .orderBy(asc(subscriptions.seq));
      return rows.map(toSubscriptionRecord);
    },

    async listMirrorsToEnd() {
      const rows = await db
        .select()
        .from(subscriptions)
        .where(
          and(
            isNotNull(subscriptions.relay),
            isNotNull(subscriptions.endedAt),
            isNull(subscriptions.remoteEndedAt),
          ),
        )
        .orderBy(asc(subscriptions.seq));
      return rows.map(toSubscriptionRecord);
    },

    async setMirrorState(id, { remoteCursor, linkLostAt, remoteEndedAt }) {
      const set = {
        ...(remoteEndedAt === undefined
          ? {}
          : { remoteEndedAt: remoteEndedAt === null ? null : toDate(remoteEndedAt) }),
        ...(remoteCursor === undefined ? {} : { remoteCursor }),
        ...(linkLostAt === undefined ? {} : { linkLostAt: linkLostAt === null ? null : toDate(linkLostAt) }),
      };
      if (Object.keys(set).length === 0) {
        return;
      }
      await db.update(subscriptions).set(set).where(eq(subscriptions.id, id));
    },

    async nextTickAt() {
      const [row] = await db
        .select({ at: min(subscriptions.nextTickAt) })
        .from(subscriptions)
        .where(ACTIVE);
      return row?.at ? toMs(row.at) : null;
    },
  };
}
