import { RelayError } from "@oar/core";
import { TOOL_CALLS_SHOWN } from "../actions/tool-call-log";
import { PEER_EVENTS_KEPT_MS } from "../peers/subscription-events";
import type { RetentionOptions } from "../ports/retention-options";
import { TASK_OUTPUT_KEPT_MS } from "../tasks/task-host";

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

export type ResolvedRetention = Required<RetentionOptions>;

export const RETENTION_DEFAULTS: ResolvedRetention = {
  everyMs: MINUTE_MS,
  batchSize: 500,
  batchesPerPass: 10,
  eventsKeptMs: PEER_EVENTS_KEPT_MS,
  deliveriesKeptMs: DAY_MS,
  // The cap reads the last hour; the second hour covers relay processes whose clocks differ.
  wakeupsKeptMs: 2 * HOUR_MS,
  firingsKeptMs: DAY_MS,
  tasksKeptMs: DAY_MS,
  toolCallsKept: TOOL_CALLS_SHOWN,
  compactEveryMs: HOUR_MS,
};

/**
 * The least each option may be: below it, a rule of the catalogue would break (a replay missing
 * events, a cap miscounted, a task unreadable within its hour, an activity showing fewer calls).
 */
const LEAST: ResolvedRetention = {
  everyMs: 1,
  batchSize: 1,
  batchesPerPass: 1,
  eventsKeptMs: PEER_EVENTS_KEPT_MS,
  deliveriesKeptMs: 0,
  wakeupsKeptMs: HOUR_MS,
  firingsKeptMs: 0,
  tasksKeptMs: TASK_OUTPUT_KEPT_MS,
  toolCallsKept: TOOL_CALLS_SHOWN,
  compactEveryMs: 0,
};

/** The options with their defaults; VALIDATION naming each option below its least or not a whole number. */
export function resolveRetention(options: RetentionOptions = {}): ResolvedRetention {
  const resolved = { ...RETENTION_DEFAULTS };
  const problems: string[] = [];
  for (const key of Object.keys(RETENTION_DEFAULTS) as (keyof ResolvedRetention)[]) {
    const value = options[key];
    if (value === undefined) {
      continue;
    }
    if (!Number.isSafeInteger(value) || value < LEAST[key]) {
      problems.push(`${key}: expected a whole number of at least ${LEAST[key]}, got ${value}`);
      continue;
    }
    resolved[key] = value;
  }
  if (problems.length > 0) {
    throw new RelayError("VALIDATION", `The retention options are not valid: ${problems.join("; ")}.`);
  }
  return resolved;
}
