import type { CardRecord, CardStore } from "@oar/permissions";
import { and, asc, eq, gt, lte } from "drizzle-orm";
import type { Database } from "../database";
import { approvalCards } from "../tables";
import { mapFirst, toDate, toMs, toMsOrNull } from "./rows";

type CardRow = typeof approvalCards.$inferSelect;

function toCardRecord(row: CardRow): CardRecord {
  return {
    id: row.id,
    kind: row.kind,
    conversation: row.conversation,
    action: row.action,
    targetRelay: row.targetRelay,
    targetSession: row.targetSession,
    text: row.text,
    detail: row.detail,
    status: row.status,
    createdAt: toMs(row.createdAt),
    answeredAt: toMsOrNull(row.answeredAt),
    expiresAt: toMs(row.expiresAt),
  };
}

export function createCardStore(db: Database): CardStore {
  return {
    async createCard(input) {
      const [row] = await db
        .insert(approvalCards)
        .values({
          id: input.id,
          kind: input.kind,
          conversation: input.conversation,
          action: input.action,
          targetRelay: input.targetRelay,
          targetSession: input.targetSession ?? null,
          text: input.text ?? "",
          detail: [...(input.detail ?? [])],
          status: "pending",
          createdAt: toDate(input.createdAt),
          expiresAt: toDate(input.expiresAt),
        })
        .returning();
      if (!row) {
        throw new Error(`Inserting card ${input.id} returned no row.`);
      }
      return toCardRecord(row);
    },

    async getCard(id) {
      return mapFirst(await db.select().from(approvalCards).where(eq(approvalCards.id, id)), toCardRecord);
    },

    async listCards({ status, conversation, kind } = {}) {
      const rows = await db
        .select()
        .from(approvalCards)
        .where(
          and(
            status === undefined ? undefined : eq(approvalCards.status, status),
            conversation === undefined ? undefined : eq(approvalCards.conversation, conversation),
            kind === undefined ? undefined : eq(approvalCards.kind, kind),
          ),
        )
        .orderBy(asc(approvalCards.createdAt), asc(approvalCards.seq));
      return rows.map(toCardRecord);
    },

    async answerCard({ id, decision, at }) {
      // Compare-and-set: only the update that still finds the card pending and unexpired wins.
      const rows = await db
        .update(approvalCards)
        .set({ status: decision, answeredAt: toDate(at) })
        .where(
          and(
            eq(approvalCards.id, id),
            eq(approvalCards.status, "pending"),
            gt(approvalCards.expiresAt, toDate(at)),
          ),
        )
        .returning({ id: approvalCards.id });
      return rows.length > 0;
    },

    async expireCards(now) {
      const rows = await db
        .update(approvalCards)
        .set({ status: "expired" })
        .where(and(eq(approvalCards.status, "pending"), lte(approvalCards.expiresAt, toDate(now))))
        .returning();
      return rows.map(toCardRecord);
    },
  };
}
