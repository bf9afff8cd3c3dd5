import type { Action } from "@oar/schema";

const SHORT_ID_LENGTH = 8;

/** The 8-character form of an id in summaries (R-CALL-10): its body, without the kind prefix. */
export function shortId(id: string): string {
  const at = id.indexOf("_");
  return id.slice(at + 1, at + 1 + SHORT_ID_LENGTH);
}

/** `<action> → <relay>[ session <8-char id>][ task <8-char id>]: <details>`; list_relays names no relay (R-CALL-10). */
export function summaryLine(input: {
  readonly action: Action;
  readonly relay: string;
  readonly session?: string;
  /** A task of the session (read_task_output, R-RTO-06). */
  readonly task?: string;
  readonly details: string;
}): string {
  const session = input.session === undefined ? "" : ` session ${shortId(input.session)}`;
  const task = input.task === undefined ? "" : ` task ${shortId(input.task)}`;
  const target = input.action === "list_relays" ? "" : ` → ${input.relay}${session}${task}`;
  // A summary is one line (R-CALL-03) even when a detail quotes multi-line text.
  return `${input.action}${target}: ${input.details}`.replace(/\s*[\r\n]+\s*/g, " ");
}

/** `1 relay`, `2 relays`. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
