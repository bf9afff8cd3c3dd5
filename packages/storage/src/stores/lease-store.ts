import { err, ok } from "@oar/core";
import type { Lease, LeaseStore } from "@oar/engine";
import { and, asc, eq, like, lte, sql } from "drizzle-orm";
import type { Database } from "../database";
import { leases } from "../tables";
import { instantParam, mapFirst, toDate, toMs } from "./rows";

type LeaseRow = typeof leases.$inferSelect;

function toLease(row: LeaseRow): Lease {
  return {
    name: row.name,
    owner: row.owner,
    fencingToken: row.fencingToken,
    expiresAt: toMs(row.expiresAt),
    process: row.host === null || row.pid === null ? null : { host: row.host, pid: row.pid },
    instance: row.instance,
    address: row.address,
  };
}

export function createLeaseStore(db: Database): LeaseStore {
  const getLease = async (name: string) =>
    mapFirst(await db.select().from(leases).where(eq(leases.name, name)), toLease);
  const held = (name: string, owner: string, fencingToken: number) =>
    and(eq(leases.name, name), eq(leases.owner, owner), eq(leases.fencingToken, fencingToken));

  return {
    async acquireLease({ name, owner, ttlMs, now, process, instance, address }) {
      const at = instantParam(now);
      // One statement decides: the row lock of ON CONFLICT serializes contenders, and each sees the
      // winner's row. Only a live lease re-taken by its own owner keeps its token.
      const keeps = sql`${leases.owner} = excluded.owner and ${leases.expiresAt} > ${at}`;
      const rows = await db
        .insert(leases)
        .values({
          name,
          owner,
          fencingToken: 1,
          acquiredAt: toDate(now),
          expiresAt: toDate(now + ttlMs),
          host: process?.host ?? null,
          pid: process?.pid ?? null,
          instance: instance ?? null,
          address: address ?? null,
        })
        .onConflictDoUpdate({
          target: leases.name,
          set: {
            owner: sql`excluded.owner`,
            fencingToken: sql`case when ${keeps} then ${leases.fencingToken} else ${leases.fencingToken} + 1 end`,
            acquiredAt: sql`case when ${keeps} then ${leases.acquiredAt} else excluded.acquired_at end`,
            expiresAt: sql`excluded.expires_at`,
            host: sql`excluded.host`,
            pid: sql`excluded.pid`,
            instance: sql`excluded.instance`,
            address: sql`excluded.address`,
          },
          setWhere: sql`${leases.owner} = excluded.owner or ${leases.expiresAt} <= ${at}`,
        })
        .returning();
      const lease = mapFirst(rows, toLease);
      return lease ? ok(lease) : err({ holder: await getLease(name) });
    },

    async renewLease({ name, owner, fencingToken, ttlMs, now, address }) {
      const rows = await db
        .update(leases)
        .set({ expiresAt: toDate(now + ttlMs), ...(address == null ? {} : { address }) })
        .where(held(name, owner, fencingToken))
        .returning();
      const lease = mapFirst(rows, toLease);
      return lease ? ok(lease) : err({ holder: await getLease(name) });
    },

    async releaseLease({ name, owner, fencingToken, now }) {
      // The row stays, expired, so that the next holder's token is still higher than this one.
      const rows = await db
        .update(leases)
        .set({ expiresAt: sql`least(${leases.expiresAt}, ${instantParam(now)})` })
        .where(held(name, owner, fencingToken))
        .returning({ name: leases.name });
      return rows.length > 0;
    },

    async holdsLease({ name, fencingToken }) {
      const rows = await db
        .select({ name: leases.name })
        .from(leases)
        .where(and(eq(leases.name, name), eq(leases.fencingToken, fencingToken)))
        .for("share");
      return rows.length > 0;
    },

    getLease,

    async listLeases({ prefix }) {
      const rows = await db
        .select()
        .from(leases)
        .where(like(leases.name, `${escapeLike(prefix)}%`));
      return rows.map(toLease);
    },

    async listExpiredLeases({ prefix, now }) {
      const rows = await db
        .select()
        .from(leases)
        .where(and(like(leases.name, `${escapeLike(prefix)}%`), lte(leases.expiresAt, toDate(now))))
        .orderBy(asc(leases.expiresAt));
      return rows.map(toLease);
    },

    async retireLease({ name, fencingToken, now }) {
      const rows = await db
        .delete(leases)
        .where(
          and(
            eq(leases.name, name),
            eq(leases.fencingToken, fencingToken),
            lte(leases.expiresAt, toDate(now)),
          ),
        )
        .returning({ name: leases.name });
      return rows.length > 0;
    },
  };
}

/** A LIKE pattern that matches `text` literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
