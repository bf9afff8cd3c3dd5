import type { LeftProcess } from "../lib/left-behind";
import type { CallRecord } from "./calls";
import type { OwnerEventReader } from "./event-stream";
import type { Journal } from "./journal";
import type { MarkLine, Rows, TurnRow } from "./ledger-reads";

/** One promise of the cluster, held to the run: passed when it lists no failure. */
export interface Check {
  readonly name: string;
  readonly title: string;
  readonly passed: boolean;
  /** What was checked, counted. */
  readonly counts: Readonly<Record<string, number>>;
  /** Each failure, saying which session, turn, slot, event or call. */
  readonly failures: readonly string[];
  /** What is worth knowing and is not a failure. */
  readonly notes: readonly string[];
}

export interface LedgerInput {
  readonly journal: Journal;
  readonly calls: readonly CallRecord[];
  readonly rows: Rows;
  readonly marks: readonly MarkLine[];
  readonly events: OwnerEventReader;
  readonly leftBehind: readonly LeftProcess[];
  /** Which member ran each pid (every process each member had). */
  readonly memberOfPid: ReadonlyMap<number, string>;
  /** The pid each runner lease named, as seen during the run (`lease-watch.ts`). */
  readonly leasePids: ReadonlyMap<string, number | null>;
  /** Each kill -9 of the run: which member, when, when it listened again. */
  readonly kills: readonly { readonly member: string; readonly at: number; readonly end: number | null }[];
  /** Tasks whose end a relay logged it could not write (`relay-logs.ts`): the diagnosis of a stuck row. */
  readonly lostTaskEnds: ReadonlySet<string>;
  /** Subscriptions and their events: an event this long after the subscription must reach it. */
  readonly subscriptionGraceMs: number;
}

/** The marker of a soak turn, in its prompt (`turn-script.ts`): the prompt is the one place that has it before the turn runs. */
export const MARKER_IN_PROMPT = /echo (sk[0-9a-f]+-[a-z]+\d+) \$OAR_TASK_ID/;
/** A firing's message begins with its schedule's id (R-SCH-07). */
export const SCHEDULE_PREFIX = /^\[relay schedule (sch_[a-z0-9]+) /;
/** An event line in a watcher's message (R-DLV-01): the session it is about and the event's kind. */
export const EVENT_LINE =
  /^\[relay event\] session ".*" \((ses_[a-z0-9]+)\): (turn_end|error|question_answered)\b/;

/** Collects a check's counts, failures and notes as the ledger reads the rows. */
export class CheckBuilder {
  readonly counts: Record<string, number> = {};
  readonly failures: string[] = [];
  readonly notes: string[] = [];

  constructor(
    readonly name: string,
    readonly title: string,
  ) {}

  count(key: string, by = 1): void {
    this.counts[key] = (this.counts[key] ?? 0) + by;
  }

  fail(text: string): void {
    this.failures.push(text);
  }

  done(): Check {
    return {
      name: this.name,
      title: this.title,
      passed: this.failures.length === 0,
      counts: this.counts,
      failures: this.failures,
      notes: this.notes,
    };
  }
}

export const iso = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? "—" : new Date(ms).toISOString();

/** The member whose process held a runner lease: the name a failure gives for where a turn or task ran. */
export function memberOfLease(input: LedgerInput, lease: string | null): string {
  if (lease === null) {
    return "no process";
  }
  const pid = input.rows.leases.get(lease)?.pid ?? input.leasePids.get(lease);
  return (pid === null || pid === undefined ? undefined : input.memberOfPid.get(pid)) ?? `lease ${lease}`;
}

export function describeTurn(input: LedgerInput, turn: TurnRow): string {
  const ran = turn.lease === null ? "" : ` on ${memberOfLease(input, turn.lease)}`;
  return `turn ${turn.id} of session ${turn.session}${ran}`;
}
