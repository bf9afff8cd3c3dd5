import { err, ok } from "@oar/core";
import type { GroupRecord, GroupStore, MembershipChange } from "@oar/engine";
import { and, asc, count, desc, eq, exists, isNull, or, sql } from "drizzle-orm";
import type { Database } from "../database";
import { sessionGroups, sessions } from "../tables";
import { countWhere, instantParam, mapFirst, toDate, toMs } from "./rows";
import { liveSession } from "./session-store";

type GroupRow = typeof sessionGroups.$inferSelect;

function toGroupRecord(row: GroupRow): GroupRecord {
  return {
    id: row.id,
    name: row.name,
    createdByAgent: row.createdByAgent,
    headSessionId: row.headSessionId,
    createdAt: toMs(row.createdAt),
    lastActiveAt: toMs(row.lastActiveAt),
  };
}

const liveGroup = (id: string) => and(eq(sessionGroups.id, id), isNull(sessionGroups.dissolvedAt));
const NO_CHANGE: MembershipChange = { previousGroupId: null, previousGroupDeleted: false };

/** Deletes (dissolves) the group if an agent created it and no non-deleted session is left in it. */
async function deleteIfEmpty(db: Database, id: string, at: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Lock first, then count in a later statement, so a session joining meanwhile is seen.
    const [group] = await tx
      .select({ id: sessionGroups.id })
      .from(sessionGroups)
      .where(and(liveGroup(id), eq(sessionGroups.createdByAgent, true)))
      .for("update");
    if (!group) {
      return false;
    }
    const [members] = await tx
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.groupId, id), isNull(sessions.deletedAt)));
    if ((members?.n ?? 0) > 0) {
      return false;
    }
    await tx
      .update(sessionGroups)
      .set({ dissolvedAt: toDate(at) })
      .where(eq(sessionGroups.id, id));
    return true;
  });
}

async function leaveGroup(
  db: Database,
  move: { previousGroupId: string | null; nextGroupId: string | null; at: number },
): Promise<MembershipChange> {
  const { previousGroupId, nextGroupId, at } = move;
  if (previousGroupId === null || previousGroupId === nextGroupId) {
    return NO_CHANGE;
  }
  return { previousGroupId, previousGroupDeleted: await deleteIfEmpty(db, previousGroupId, at) };
}

export function createGroupStore(db: Database): GroupStore {
  const isMember = and(eq(sessions.groupId, sessionGroups.id), isNull(sessions.deletedAt));
  const memberCount = countWhere(db, sessions, isMember);
  const hasMembers = exists(db.select({ one: sql`1` }).from(sessions).where(isMember));

  return {
    async createGroup(input) {
      const [row] = await db
        .insert(sessionGroups)
        .values({
          id: input.id,
          name: input.name ?? null,
          createdByAgent: input.createdByAgent,
          headSessionId: input.headSessionId ?? null,
          createdAt: toDate(input.createdAt),
          lastActiveAt: toDate(input.createdAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting group ${input.id} returned no row.`);
      }
      return toGroupRecord(row);
    },

    async getGroup(id) {
      return mapFirst(await db.select().from(sessionGroups).where(liveGroup(id)), toGroupRecord);
    },

    async findGroups(ref) {
      const rows = await db
        .select()
        .from(sessionGroups)
        .where(
          and(
            isNull(sessionGroups.dissolvedAt),
            or(eq(sessionGroups.id, ref), sql`lower(${sessionGroups.name}) = lower(${ref})`),
          ),
        )
        .orderBy(asc(sessionGroups.createdAt), asc(sessionGroups.id));
      return rows.map(toGroupRecord);
    },

    async listGroups({ limit = 50, includeEmpty = false } = {}) {
      const where = and(isNull(sessionGroups.dissolvedAt), includeEmpty ? undefined : hasMembers);
      const rows = await db
        .select({ group: sessionGroups, memberCount })
        .from(sessionGroups)
        .where(where)
        .orderBy(desc(sessionGroups.lastActiveAt), desc(sessionGroups.createdAt), asc(sessionGroups.id))
        .limit(limit);
      const [total] = await db.select({ n: count() }).from(sessionGroups).where(where);
      return {
        groups: rows.map((row) => ({ ...toGroupRecord(row.group), memberCount: row.memberCount })),
        total: total?.n ?? 0,
      };
    },

    async renameGroup({ id, name }) {
      return mapFirst(
        await db.update(sessionGroups).set({ name }).where(liveGroup(id)).returning(),
        toGroupRecord,
      );
    },

    async dissolveGroup({ id, at }) {
      return db.transaction(async (tx) => {
        const dissolved = await tx
          .update(sessionGroups)
          .set({ dissolvedAt: toDate(at) })
          .where(liveGroup(id))
          .returning({ id: sessionGroups.id });
        if (dissolved.length === 0) {
          return false;
        }
        await tx.update(sessions).set({ groupId: null, groupRole: null }).where(eq(sessions.groupId, id));
        return true;
      });
    },

    async setSessionGroup({ sessionId, groupId, role, at }) {
      return db.transaction(async (tx) => {
        // A share lock keeps the group from being dissolved or deleted until the session is in it.
        const [group] = await tx
          .select({ id: sessionGroups.id })
          .from(sessionGroups)
          .where(liveGroup(groupId))
          .for("share");
        if (!group) {
          return err("unknown_group" as const);
        }
        const [session] = await tx
          .select({ groupId: sessions.groupId })
          .from(sessions)
          .where(liveSession(sessionId))
          .for("no key update");
        if (!session) {
          return err("unknown_session" as const);
        }
        await tx.update(sessions).set({ groupId, groupRole: role }).where(eq(sessions.id, sessionId));
        await tx
          .update(sessionGroups)
          .set({ lastActiveAt: sql`greatest(${sessionGroups.lastActiveAt}, ${instantParam(at)})` })
          .where(eq(sessionGroups.id, groupId));
        return ok(await leaveGroup(tx, { previousGroupId: session.groupId, nextGroupId: groupId, at }));
      });
    },

    async clearSessionGroup({ sessionId, at }) {
      return db.transaction(async (tx) => {
        const [session] = await tx
          .select({ groupId: sessions.groupId })
          .from(sessions)
          .where(liveSession(sessionId))
          .for("no key update");
        if (!session) {
          return null;
        }
        await tx.update(sessions).set({ groupId: null, groupRole: null }).where(eq(sessions.id, sessionId));
        return leaveGroup(tx, { previousGroupId: session.groupId, nextGroupId: null, at });
      });
    },

    async deleteGroupIfEmpty({ id, at }) {
      return deleteIfEmpty(db, id, at);
    },
  };
}
