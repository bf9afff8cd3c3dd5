import type { RelayUnlock, UnlockStore } from "@oar/permissions";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Database } from "../database";
import { relayUnlocks } from "../tables";
import { mapFirst, toDate, toMs } from "./rows";

type UnlockRow = typeof relayUnlocks.$inferSelect;

function toRelayUnlock(row: UnlockRow): RelayUnlock {
  return { conversation: row.conversation, relay: row.relay, how: row.how, unlockedAt: toMs(row.unlockedAt) };
}

export function createUnlockStore(db: Database): UnlockStore {
  const getRelayUnlock: UnlockStore["getRelayUnlock"] = async ({ conversation, relay }) =>
    mapFirst(
      await db
        .select()
        .from(relayUnlocks)
        .where(and(eq(relayUnlocks.conversation, conversation), eq(relayUnlocks.relay, relay))),
      toRelayUnlock,
    );

  return {
    async unlockRelay({ conversation, relay, how, at }) {
      // A mention is never downgraded; an agent unlock becomes a mention when the user names the relay.
      const [row] = await db
        .insert(relayUnlocks)
        .values({ conversation, relay, how, unlockedAt: toDate(at) })
        .onConflictDoUpdate({
          target: [relayUnlocks.conversation, relayUnlocks.relay],
          set: { how: sql`case when ${relayUnlocks.how} = 'mention' then 'mention' else excluded.how end` },
        })
        .returning();
      if (!row) {
        throw new Error(`Unlocking ${relay} for ${conversation} returned no row.`);
      }
      return toRelayUnlock(row);
    },

    getRelayUnlock,

    async isRelayUnlocked(key) {
      return (await getRelayUnlock(key)) !== null;
    },

    async listRelayUnlocks(conversation) {
      const rows = await db
        .select()
        .from(relayUnlocks)
        .where(eq(relayUnlocks.conversation, conversation))
        .orderBy(asc(relayUnlocks.unlockedAt), asc(relayUnlocks.relay));
      return rows.map(toRelayUnlock);
    },

    async forgetRelay(relay) {
      const ended = await db
        .delete(relayUnlocks)
        .where(sql`lower(${relayUnlocks.relay}) = lower(${relay})`)
        .returning({ relay: relayUnlocks.relay });
      return ended.length;
    },
  };
}
