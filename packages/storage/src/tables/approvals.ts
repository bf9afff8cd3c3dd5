import type { CardKind, CardStatus, UnlockHow } from "@oar/permissions";
import { index, integer, jsonb, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { instant, oneOf, sequence } from "./columns";
import { CARD_KINDS, CARD_STATUSES, UNLOCK_HOWS } from "./vocabulary";

export const approvalCards = pgTable(
  "approval_cards",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    kind: text("kind").$type<CardKind>().notNull(),
    conversation: text("conversation").notNull(),
    action: text("action").notNull(),
    targetRelay: text("target_relay").notNull(),
    targetSession: text("target_session"),
    // What the card asks the owner, as the engine worded it when it raised the card.
    text: text("text").notNull().default(""),
    detail: jsonb("detail").$type<string[]>().notNull().default([]),
    status: text("status").$type<CardStatus>().notNull(),
    createdAt: instant("created_at").notNull(),
    answeredAt: instant("answered_at"),
    expiresAt: instant("expires_at").notNull(),
  },
  (t) => [
    index("approval_cards_status_expiry_idx").on(t.status, t.expiresAt),
    index("approval_cards_conversation_idx").on(t.conversation, t.kind),
    oneOf("approval_cards_kind_check", t.kind, CARD_KINDS),
    oneOf("approval_cards_status_check", t.status, CARD_STATUSES),
  ],
);

/** Paired relays unlocked in a conversation; an unlock lasts for the rest of the conversation. */
export const relayUnlocks = pgTable(
  "relay_unlocks",
  {
    conversation: text("conversation").notNull(),
    relay: text("relay").notNull(),
    how: text("how").$type<UnlockHow>().notNull(),
    unlockedAt: instant("unlocked_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.conversation, t.relay] }),
    oneOf("relay_unlocks_how_check", t.how, UNLOCK_HOWS),
  ],
);

/** The anti-loop guard: prompts to other agents since the owner last wrote in the conversation. */
export const loopCounters = pgTable("loop_counters", {
  conversation: text("conversation").primaryKey(),
  count: integer("count").notNull(),
});
