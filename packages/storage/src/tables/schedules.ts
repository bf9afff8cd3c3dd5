import type { Provenance } from "@oar/engine";
import type { ScheduleEndReason } from "@oar/schema";
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, unique } from "drizzle-orm/pg-core";
import { instant, oneOf } from "./columns";
import { sessions } from "./sessions";
import { FIRING_STATUSES, type FiringStatus, SCHEDULE_END_REASONS } from "./vocabulary";

export const schedules = pgTable(
  "schedules",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    text: text("text").notNull(),
    // The session it fires in, and the conversation that created it (the same for one's own).
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id),
    createdBy: text("created_by").notNull(),
    at: instant("at"),
    everyMinutes: integer("every_minutes"),
    once: boolean("once").notNull(),
    // The first slot of the grid (GAP-18): `at`, else one interval after creation.
    anchor: instant("anchor").notNull(),
    nextFireAt: instant("next_fire_at"),
    lastFiredAt: instant("last_fired_at"),
    // The turn the last firing queued: a repetition is skipped while it still waits (R-SCH-12).
    lastTurnId: text("last_turn_id"),
    firedCount: integer("fired_count").notNull().default(0),
    skippedCount: integer("skipped_count").notNull().default(0),
    // Set while the anti-loop guard holds a firing (R-SCH-18).
    heldSince: instant("held_since"),
    // When the firing loop looks at it next: next_fire_at, or a held firing's re-check.
    dueAt: instant("due_at"),
    // The creating turn's hop provenance, carried by every firing (R-SCH-14).
    provenance: jsonb("provenance").$type<Provenance>(),
    createdAt: instant("created_at").notNull(),
    endedAt: instant("ended_at"),
    endReason: text("end_reason").$type<ScheduleEndReason>(),
  },
  (t) => [
    index("schedules_due_idx").on(t.dueAt).where(sql`ended_at is null`),
    index("schedules_session_idx").on(t.sessionId),
    index("schedules_created_by_idx").on(t.createdBy),
    oneOf("schedules_end_reason_check", t.endReason, SCHEDULE_END_REASONS),
  ],
);

/** One row per grid slot: a restart between two steps never fires a slot twice. */
export const scheduleFirings = pgTable(
  "schedule_firings",
  {
    id: text("id").primaryKey(),
    scheduleId: text("schedule_id")
      .notNull()
      .references(() => schedules.id),
    slot: instant("slot").notNull(),
    status: text("status").$type<FiringStatus>().notNull(),
    turnId: text("turn_id"),
    createdAt: instant("created_at").notNull(),
  },
  (t) => [
    unique("schedule_firings_slot_key").on(t.scheduleId, t.slot),
    oneOf("schedule_firings_status_check", t.status, FIRING_STATUSES),
  ],
);
