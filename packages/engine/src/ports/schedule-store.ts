import type { ScheduleEndReason } from "@oar/schema";
import type { Provenance } from "./session-store";

/**
 * A durable schedule (§33): it queues `text` in `sessionId` at the slots of its grid. All instants
 * are epoch milliseconds of the relay's Clock.
 */
export interface ScheduleRecord {
  readonly id: string;
  readonly title: string;
  readonly text: string;
  /** The session it fires in. */
  readonly sessionId: string;
  /** The conversation that created it: the same as `sessionId` for its own (R-SCH-20). */
  readonly createdBy: string;
  /** `at` as given (null when only every_minutes was). */
  readonly at: number | null;
  readonly everyMinutes: number | null;
  readonly once: boolean;
  /** The first slot of the grid (GAP-18): `at`, else one interval after creation. */
  readonly anchor: number;
  /** The slot it fires at next; null once ended. */
  readonly nextFireAt: number | null;
  readonly lastFiredAt: number | null;
  /** The turn its last firing queued: a repetition is skipped while it still waits (R-SCH-12). */
  readonly lastTurnId: string | null;
  readonly firedCount: number;
  readonly skippedCount: number;
  /** Since when the anti-loop guard holds its firing (R-SCH-18); null when not held. */
  readonly heldSince: number | null;
  /** When the firing loop must look at it next: `nextFireAt`, or a held firing's next re-check. */
  readonly dueAt: number | null;
  /** The creating turn's provenance, carried by every firing (R-SCH-14). */
  readonly provenance: Provenance | null;
  readonly createdAt: number;
  readonly endedAt: number | null;
  readonly endReason: ScheduleEndReason | null;
}

export type NewSchedule = Pick<
  ScheduleRecord,
  | "id"
  | "title"
  | "text"
  | "sessionId"
  | "createdBy"
  | "at"
  | "everyMinutes"
  | "once"
  | "anchor"
  | "provenance"
  | "createdAt"
> & { readonly nextFireAt: number };

/** What a firing, a skip or a hold changes in a schedule. */
export type ScheduleTimingPatch = Partial<
  Pick<
    ScheduleRecord,
    | "nextFireAt"
    | "lastFiredAt"
    | "lastTurnId"
    | "firedCount"
    | "skippedCount"
    | "heldSince"
    | "dueAt"
    | "endedAt"
    | "endReason"
  >
>;

/** One slot of a schedule, recorded once: its idempotency key is (scheduleId, slot) (DESIGN §3). */
export interface ScheduleFiring {
  readonly id: string;
  readonly scheduleId: string;
  readonly slot: number;
  readonly outcome: "fired" | "skipped";
  /** The turn the firing queued (null for a skip, or a session driven from outside). */
  readonly turnId: string | null;
  readonly at: number;
}

export interface ScheduleStore {
  /**
   * Calls `listener` when another process (or this one) announced a change of schedules; returns
   * the function that stops it. Only where other processes share the stores (Postgres LISTEN).
   */
  onForeignChanges?(listener: () => void): () => void;
  /** Tells the processes listening that schedules changed (after the change committed). */
  announceChanges?(): Promise<void>;
  insertSchedule(schedule: NewSchedule): Promise<ScheduleRecord>;
  getSchedule(id: string): Promise<ScheduleRecord | null>;
  /**
   * The schedules that fire in `conversation` or that it created: the active ones, and those that
   * ended at `endedSince` or later (R-LSCH-01). Oldest first.
   */
  listSchedulesOf(conversation: string, options: { readonly endedSince: number }): Promise<ScheduleRecord[]>;
  /** Active schedules firing in `conversation`, and active ones it created for other sessions (R-SCHEND-03). */
  countActive(
    conversation: string,
  ): Promise<{ readonly firingIn: number; readonly createdForOthers: number }>;
  /**
   * Claims up to `limit` active schedules whose `dueAt` has come (FOR UPDATE SKIP LOCKED on a
   * shared database: another process's claim skips them until this transaction ends), earliest
   * first. Only inside a transaction.
   */
  claimDueSchedules(options: { readonly now: number; readonly limit: number }): Promise<ScheduleRecord[]>;
  /** Records a slot once; false when it was recorded before (another process, or before a crash). */
  recordFiring(firing: ScheduleFiring): Promise<boolean>;
  /** The recorded slots of a schedule, oldest first (tests, listings). */
  listFirings(scheduleId: string): Promise<ScheduleFiring[]>;
  /** Writes a schedule's timing after a firing, a skip or a hold; nothing for an unknown id. */
  updateSchedule(id: string, patch: ScheduleTimingPatch): Promise<void>;
  /** Ends an active schedule; `null` when it had ended (or does not exist). */
  endSchedule(input: {
    readonly id: string;
    readonly reason: ScheduleEndReason;
    readonly at: number;
  }): Promise<ScheduleRecord | null>;
  /** Ends every active schedule that fires in, or was created by, one of `sessionIds` (R-SCHEND-01). */
  endSchedulesOf(input: {
    readonly sessionIds: readonly string[];
    readonly reason: ScheduleEndReason;
    readonly at: number;
  }): Promise<ScheduleRecord[]>;
  /**
   * Compaction (R-SCHEND-02): the schedules, active or ended, that fire in `from` now fire in
   * `to`, and those `from` created are now created by `to`. Returns how many rows moved.
   */
  moveSchedules(input: { readonly from: string; readonly to: string }): Promise<number>;
  /** Held schedules created by `createdBy` become due at `at` (the owner wrote there, R-SCH-19). */
  recheckHeld(input: { readonly createdBy: string; readonly at: number }): Promise<number>;
  /** The earliest `dueAt` of an active schedule, or null. */
  nextDueAt(): Promise<number | null>;
}
