import { readFile } from "node:fs/promises";
import type { ClusterMember } from "../lib/relay-cluster";

/** A relay's log line at level error: the relay says it hit a bug, not an outage it expected. */
const ERROR_LINE = /^\[error\] /;

/** Each member's `[error]` lines (its log holds all its processes' stderr and stdout), distinct, counted. */
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
      if (ERROR_LINE.test(line)) {
        const key = line.slice(0, 300);
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

/** Tasks whose end a relay could not write, from the `[error]` lines. */
export function lostTaskEnds(errors: readonly { readonly line: string }[]): Set<string> {
  return new Set(errors.map((error) => LOST_TASK_END.exec(error.line)?.[1]).filter((id) => id !== undefined));
}
