import { boolean, index, pgTable, text } from "drizzle-orm/pg-core";
import { instant, sequence } from "./columns";
import { sessions } from "./sessions";

/**
 * The relay_tool calls of this relay's conversations (R-UI-02: the 🛰️ lines of an agent's
 * activity), one row per call, refusals included. `relay` is the relay the call named, `code`
 * the error code of one that failed, `summary` its result's summary or error (≤ 300 characters).
 */
export const toolCalls = pgTable(
  "tool_calls",
  {
    // Insertion order, for calls that arrived in the same millisecond.
    seq: sequence(),
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    action: text("action").notNull(),
    relay: text("relay").notNull(),
    targetSession: text("target_session"),
    ok: boolean("ok").notNull(),
    code: text("code"),
    summary: text("summary").notNull(),
    createdAt: instant("created_at").notNull(),
  },
  // A conversation's newest calls are read from its end of this index.
  (t) => [index("tool_calls_session_created_idx").on(t.sessionId, t.createdAt)],
);
