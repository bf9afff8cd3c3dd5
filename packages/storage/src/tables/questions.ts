import type { Provenance } from "@oar/engine";
import type { QuestionKind, QuestionStatus } from "@oar/schema";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { instant, oneOf, sequence } from "./columns";
import { QUESTION_KINDS, QUESTION_STATUSES } from "./vocabulary";

/** Blocking question cards (`ask_user`) and non-blocking Inbox questions (`ask`). */
export const questions = pgTable(
  "questions",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    kind: text("kind").$type<QuestionKind>().notNull(),
    // The asking conversation (relay null = this relay).
    askingRelay: text("asking_relay"),
    askingSession: text("asking_session").notNull(),
    // The session the question is about and whose card shows it (the asker's own for `ask_user`).
    sessionId: text("session_id").notNull(),
    // A question about a session on a paired relay is kept there; this row mirrors it for polling.
    keptOnRelay: text("kept_on_relay"),
    remoteQuestionId: text("remote_question_id"),
    turnId: text("turn_id"),
    text: text("text").notNull(),
    options: jsonb("options").$type<string[]>().notNull().default([]),
    recommendation: text("recommendation"),
    detail: text("detail"),
    status: text("status").$type<QuestionStatus>().notNull(),
    answer: text("answer"),
    choices: jsonb("choices").$type<string[]>(),
    // The relay whose Inbox the owner answered in.
    via: text("via"),
    provenance: jsonb("provenance").$type<Provenance>(),
    createdAt: instant("created_at").notNull(),
    answeredAt: instant("answered_at"),
    endedAt: instant("ended_at"),
    nextPollAt: instant("next_poll_at"),
  },
  (t) => [
    index("questions_asking_idx").on(t.askingSession, t.status),
    index("questions_session_idx").on(t.sessionId, t.status),
    index("questions_poll_idx").on(t.nextPollAt),
    // Every turn end closes its blocking questions.
    index("questions_turn_idx").on(t.turnId),
    oneOf("questions_kind_check", t.kind, QUESTION_KINDS),
    oneOf("questions_status_check", t.status, QUESTION_STATUSES),
  ],
);
