import type { PeerRecord, PeerStore } from "@oar/engine";
import { and, asc, isNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "../database";
import { peers } from "../tables";
import { sqlStateOf } from "./guard";
import { mapFirst, toDate, toMs, toMsOrNull } from "./rows";

type PeerRow = typeof peers.$inferSelect;

const UNIQUE_VIOLATION = "23505";
// The partial unique index on lower(name) among live pairings (src/tables/peers.ts).
const NAME_INDEX = "peers_name_key";

function toPeerRecord(row: PeerRow): PeerRecord {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    level: row.level,
    token: row.outboundToken,
    remoteName: row.remoteName,
    version: row.version,
    features: row.features === null ? null : [...row.features],
    createdAt: toMs(row.createdAt),
    updatedAt: toMs(row.updatedAt),
    lastSeenAt: toMsOrNull(row.lastSeenAt),
    linkLostAt: toMsOrNull(row.linkLostAt),
  };
}

/**
 * The constraint a driver error names, along the cause chain (drizzle wraps driver errors):
 * PGlite's error calls it `constraint`, postgres.js's `constraint_name`.
 */
function constraintOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const { constraint, constraint_name } = current as { constraint?: unknown; constraint_name?: unknown };
    const name = constraint ?? constraint_name;
    if (typeof name === "string") {
      return name;
    }
    current = current.cause;
  }
  return undefined;
}

function isNameTaken(error: unknown): boolean {
  return sqlStateOf(error) === UNIQUE_VIOLATION && constraintOf(error) === NAME_INDEX;
}

/** The live pairing of that name, compared as the unique index compares names. */
function liveNamed(name: string): SQL | undefined {
  return and(sql`lower(${peers.name}) = lower(${name})`, isNull(peers.removedAt));
}

export function createPeerStore(db: Database): PeerStore {
  return {
    async createPeer(input) {
      try {
        // In a transaction of its own (a savepoint when the store runs inside one), so that a
        // refused name leaves the caller's transaction usable.
        const [row] = await db.transaction((tx) =>
          tx
            .insert(peers)
            .values({
              id: input.id,
              name: input.name,
              url: input.url,
              level: input.level,
              outboundToken: input.token,
              createdAt: toDate(input.createdAt),
              updatedAt: toDate(input.createdAt),
            })
            .returning(),
        );
        if (!row) {
          throw new Error(`Inserting peer ${input.id} returned no row.`);
        }
        return { ok: true, peer: toPeerRecord(row) };
      } catch (error) {
        if (isNameTaken(error)) {
          return { ok: false, reason: "name_taken" };
        }
        throw error;
      }
    },

    async getPeer(name) {
      return mapFirst(await db.select().from(peers).where(liveNamed(name)), toPeerRecord);
    },

    async listPeers() {
      const rows = await db
        .select()
        .from(peers)
        .where(isNull(peers.removedAt))
        .orderBy(asc(peers.createdAt), asc(peers.id));
      return rows.map(toPeerRecord);
    },

    async countPeers() {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
        .from(peers)
        .where(isNull(peers.removedAt));
      return row?.n ?? 0;
    },

    async updatePeer({ name, patch, at }) {
      const rows = await db
        .update(peers)
        .set({
          ...(patch.url === undefined ? {} : { url: patch.url }),
          ...(patch.token === undefined ? {} : { outboundToken: patch.token }),
          ...(patch.level === undefined ? {} : { level: patch.level }),
          updatedAt: toDate(at),
        })
        .where(liveNamed(name))
        .returning();
      return mapFirst(rows, toPeerRecord);
    },

    async recordPeerSeen({ name, remoteName, version, features, at }) {
      await db
        .update(peers)
        .set({
          ...(remoteName === undefined ? {} : { remoteName }),
          version,
          features: [...features],
          lastSeenAt: toDate(at),
        })
        .where(liveNamed(name));
    },

    async recordPeerLost({ name, at }) {
      await db
        .update(peers)
        .set({ linkLostAt: toDate(at) })
        .where(liveNamed(name));
    },

    async removePeer({ name, at }) {
      const rows = await db
        .update(peers)
        .set({ removedAt: toDate(at) })
        .where(liveNamed(name))
        .returning({ id: peers.id });
      return rows.length > 0;
    },
  };
}
