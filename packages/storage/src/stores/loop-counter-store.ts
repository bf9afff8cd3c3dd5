import type { LoopCounterStore } from "@oar/permissions";
import { eq, sql } from "drizzle-orm";
import type { Database } from "../database";
import { loopCounters } from "../tables";

export function createLoopCounterStore(db: Database): LoopCounterStore {
  return {
    async incrementLoopCounter(conversation) {
      const [row] = await db
        .insert(loopCounters)
        .values({ conversation, count: 1 })
        .onConflictDoUpdate({
          target: loopCounters.conversation,
          set: { count: sql`${loopCounters.count} + 1` },
        })
        .returning({ count: loopCounters.count });
      if (!row) {
        throw new Error(`Counting a prompt of ${conversation} returned no row.`);
      }
      return row.count;
    },

    async resetLoopCounter(conversation) {
      await db.delete(loopCounters).where(eq(loopCounters.conversation, conversation));
    },

    async getLoopCounter(conversation) {
      const [row] = await db
        .select({ count: loopCounters.count })
        .from(loopCounters)
        .where(eq(loopCounters.conversation, conversation));
      return row?.count ?? 0;
    },
  };
}
