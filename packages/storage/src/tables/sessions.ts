import type { JsonObject, JsonValue, Provenance, TurnOrigin } from "@oar/engine";
import type { GroupRole, MessageRole, Mode, SessionState, TurnStatus } from "@oar/schema";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { instant, oneOf, sequence } from "./columns";
import { sessionGroups } from "./groups";
import { GROUP_ROLES, MESSAGE_ROLES, SESSION_MODES, SESSION_STATES, TURN_STATUSES } from "./vocabulary";

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    provider: text("provider").notNull(),
    model: text("model").notNull(),
    effort: text("effort"),
    mode: text("mode").$type<Mode>().notNull().default("agent"),
    cwd: text("cwd"),
    repo: text("repo"),
    branch: text("branch"),
    state: text("state").$type<SessionState>().notNull().default("idle"),
    // The conversation whose agent started the session (relay null = this relay); null = the owner.
    createdByRelay: text("created_by_relay"),
    createdBySession: text("created_by_session"),
    viaAgent: text("via_agent"),
    mayCreateSessions: boolean("may_create_sessions").notNull().default(false),
    groupId: text("group_id").references((): AnyPgColumn => sessionGroups.id, { onDelete: "set null" }),
    groupRole: text("group_role").$type<GroupRole>(),
    settings: jsonb("settings").$type<JsonObject>().notNull().default({}),
    providerState: jsonb("provider_state").$type<JsonValue>(),
    createdAt: instant("created_at").notNull(),
    lastActivityAt: instant("last_activity_at").notNull(),
    archivedAt: instant("archived_at"),
    deletedAt: instant("deleted_at"),
  },
  (t) => [
    index("sessions_created_by_idx").on(t.createdBySession, t.createdByRelay),
    index("sessions_group_idx").on(t.groupId),
    oneOf("sessions_mode_check", t.mode, SESSION_MODES),
    oneOf("sessions_state_check", t.state, SESSION_STATES),
    oneOf("sessions_group_role_check", t.groupRole, GROUP_ROLES),
  ],
);

export const messages = pgTable(
  "messages",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    turnId: text("turn_id"),
    role: text("role").$type<MessageRole>().notNull(),
    text: text("text").notNull(),
    // Hop provenance of a prompt from another agent: the `↗ from` badge and the hop count.
    provenance: jsonb("provenance").$type<Provenance>(),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    index("messages_session_seq_idx").on(t.sessionId, t.seq),
    oneOf("messages_role_check", t.role, MESSAGE_ROLES),
  ],
);

export const turns = pgTable(
  "turns",
  {
    seq: sequence(),
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    status: text("status").$type<TurnStatus>().notNull(),
    // The relay process running it (its lease, DESIGN §9) and that lease's fencing token at the claim.
    runnerLease: text("runner_lease"),
    runnerToken: bigint("runner_token", { mode: "number" }),
    promptMessageId: text("prompt_message_id"),
    // Who queued the turn, with the hop provenance a prompt from another agent carries.
    origin: jsonb("origin").$type<TurnOrigin>().notNull(),
    reply: text("reply"),
    error: text("error"),
    queuedAt: instant("queued_at").notNull(),
    startedAt: instant("started_at"),
    endedAt: instant("ended_at"),
    /** The running turn's latest output, marked at most every 30 s: the stall clock (GAP-13). */
    lastOutputAt: instant("last_output_at"),
  },
  (t) => [
    index("turns_session_status_seq_idx").on(t.sessionId, t.status, t.seq),
    index("turns_status_idx").on(t.status),
    // Recovery finds the turns a dead process was running.
    index("turns_runner_idx").on(t.runnerLease).where(sql`status = 'running'`),
    // wait's `message_id` finds its turn by the prompt message.
    index("turns_prompt_message_idx").on(t.promptMessageId),
    // The database itself refuses a second running turn in a session, whatever process claims it.
    uniqueIndex("turns_one_running_per_session").on(t.sessionId).where(sql`status = 'running'`),
    oneOf("turns_status_check", t.status, TURN_STATUSES),
  ],
);
