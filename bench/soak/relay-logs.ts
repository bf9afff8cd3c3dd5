import { readFile } from "node:fs/promises";
import type { ClusterMember } from "../lib/relay-cluster";

/** A relay's log line at level error: the relay says it hit a bug, not an outage it expected. */
const ERROR_LINE = /^\[error\] /;
/** pino's numeric levels: error is 50, fatal 60. */
const PINO_ERROR_LEVEL = 50;
const PINO_LABELS: Readonly<Record<number, string>> = { 50: "error", 60: "fatal" };
/** What changes from line to line of one error (when, which process) and would keep equal ones apart. */
const VOLATILE_FIELDS = new Set(["level", "time", "pid", "hostname", "relay", "msg"]);

/**
 * A line of the relay's pino JSON log at error or above, written as the relay's older
 * `[error] message key=value` lines were, so that equal errors count together and the report and
 * `lostTaskEnds` read both kinds alike; `undefined` for any other line.
 */
function pinoErrorLine(line: string): string | undefined {
  if (!line.startsWith("{")) {
    return undefined;
  }
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const level = entry.level;
  if (typeof level !== "number" || level < PINO_ERROR_LEVEL) {
    return undefined;
  }
  const fields = Object.entries(entry)
    .filter(([key]) => !VOLATILE_FIELDS.has(key))
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`);
  return [`[${PINO_LABELS[level] ?? "fatal"}]`, String(entry.msg ?? ""), ...fields].join(" ");
}

/** The line as an error line of either format, or `undefined` when it is not one. */
export function relayErrorLine(line: string): string | undefined {
  return ERROR_LINE.test(line) ? line : pinoErrorLine(line);
}

/**
 * Each member's error lines (`[error] …`, or pino JSON at level 50 and above; its log holds all
 * its processes' stderr and stdout), distinct, counted.
 */
export async function relayLogErrors(
  members: readonly ClusterMember[],
): Promise<{ readonly member: string; readonly count: number; readonly line: string }[]> {
  const found: { member: string; count: number; line: string }[] = [];
  for (const member of members) {
    let text = "";
    try {
      text = await readFile(member.logFile, "utf8");
    } catch {
      continue;
    }
    const counts = new Map<string, number>();
    for (const line of text.split("\n")) {
      const error = relayErrorLine(line);
      if (error !== undefined) {
        const key = error.slice(0, 300);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    for (const [line, count] of counts) {
      found.push({ member: member.name, count, line });
    }
  }
  return found;
}

/** The task a relay logged it could not write the end of (the engine's wording; a diagnosis, not a check). */
const LOST_TASK_END = /A task's end could not be written\. task="(tsk_[a-z0-9]+)"/;

/** Tasks whose end a relay could not write, from the error lines. */
export function lostTaskEnds(errors: readonly { readonly line: string }[]): Set<string> {
  return new Set(errors.map((error) => LOST_TASK_END.exec(error.line)?.[1]).filter((id) => id !== undefined));
}
