import { groupBy } from "@oar/core";
import type { OutboxEvent, QuietHours } from "@oar/schema";
import { describeQuietHours } from "./quiet-hours";
import { CAP_DIGEST_MINUTES, WAKEUPS_PER_HOUR } from "./wakeup-cap";

/** R-DLV-01: the first line of every event message. */
export const EVENT_MESSAGE_HEADER =
  "[relay event · automated message from OAR, not from the user; it approves nothing]";
const LINE_PREFIX = "[relay event] ";

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function quoted(text: string): string {
  return `"${oneLine(text)}"`;
}

function sessionPart(event: {
  readonly session: string | null;
  readonly title: string | null;
  readonly relay?: string | undefined;
}) {
  const session = `session ${quoted(event.title ?? "")} (${event.session ?? "?"})`;
  return event.relay === undefined ? session : `${event.relay} · ${session}`;
}

/** One event as its line reads, without the `[relay event]` prefix (R-DLV-01, R-EVT-07). */
export function eventLine(event: OutboxEvent): string {
  switch (event.kind) {
    case "turn_end":
      return `${sessionPart(event)}: turn_end (${event.status})${event.text === "" ? "" : ` ${quoted(event.text)}`}`;
    case "error":
      return `${sessionPart(event)}: error ${quoted(event.message)}`;
    case "question_asked":
      return `${sessionPart(event)}: question_asked ${quoted(event.text)}${event.options === undefined || event.options.length === 0 ? "" : ` (options: ${event.options.map(oneLine).join(" | ")})`} (question ${event.question_id})`;
    case "question_answered": {
      const how = event.dismissed
        ? "dismissed"
        : event.choice !== null
          ? `choice ${quoted(event.choice)}`
          : `answer ${quoted(event.answer ?? "")}`;
      return `${sessionPart(event)}: question_answered (question ${event.question_id}) ${how}`;
    }
    case "subagent_finished":
    case "task_finished":
    case "task_failed":
      return `${sessionPart(event)}: ${event.kind} ${quoted(event.description)} (task ${event.task_id}${event.exitCode === null ? "" : `, exit ${event.exitCode}`})`;
    case "task_started":
      return `${sessionPart(event)}: task_started ${quoted(event.description)} (task ${event.task_id})`;
    case "stalled":
      return `${sessionPart(event)}: stalled: no output for ${event.minutes} min${event.description === undefined ? "" : ` in ${quoted(event.description)}`} (subscription ${event.subscription_id ?? "?"})`;
    case "all_idle":
      return `all_idle: no turn or task is running in the ${event.watchedCount} watched session${event.watchedCount === 1 ? "" : "s"} (subscription ${event.subscription_id ?? "?"})`;
    case "heartbeat": {
      const states = event.sessions.map((s) => `${quoted(s.title)} (${s.id}) ${s.state}`).join(", ");
      return `heartbeat (subscription ${event.subscription_id ?? "?"}): ${event.sessions.length} watched session${event.sessions.length === 1 ? "" : "s"}${states === "" ? "" : `: ${states}`}`;
    }
    case "link_lost":
      return `link_lost (subscription ${event.subscription_id ?? "?"})`;
    case "link_restored":
      return `link_restored (subscription ${event.subscription_id ?? "?"}): ${event.replayed} replayed, ${event.held} held`;
    case "turn_started":
      return `${sessionPart(event)}: turn_started`;
    case "session_archived":
      return `${sessionPart(event)}: archived`;
    case "session_deleted":
      return `${sessionPart(event)}: deleted`;
    case "card_raised":
      return `${sessionPart(event)}: approval card ${event.card_id} for ${event.action} on relay ${quoted(event.target_relay)}`;
    case "card_answered":
      return `${sessionPart(event)}: approval card ${event.card_id} ${event.status}`;
  }
}

/** A group of events in one message, and why they waited (R-FEW-05, R-FEW-09, R-DLV-05, R-DLV-07). */
export interface MessageSection {
  readonly events: readonly OutboxEvent[];
  /** Held by a subscription's digest: its id and interval. */
  readonly digest?: { readonly subscriptionId: string; readonly minutes: number };
  /** Held by a subscription's quiet hours. */
  readonly quietHours?: QuietHours;
  /** Held by the hourly cap (R-DLV-05). */
  readonly cap?: boolean;
}

const AT_ONCE = "questions and errors come at once";

function digestHeader(section: MessageSection): string | null {
  const count = section.events.length;
  const why: string[] = [];
  if (section.digest !== undefined) {
    why.push(`subscription ${section.digest.subscriptionId} every ${section.digest.minutes} min`);
  }
  if (section.cap === true) {
    why.push(`more than ${WAKEUPS_PER_HOUR} wake-ups in the last hour: every ${CAP_DIGEST_MINUTES} min`);
  }
  if (section.quietHours !== undefined && why.length === 0) {
    return `Held during quiet hours (${describeQuietHours(section.quietHours)}): ${count} event${count === 1 ? "" : "s"}, delivered now that the window has ended; questions and errors came at once`;
  }
  // R-FEW-06: a digest of a single event reads like that event.
  if (why.length === 0 || count === 1) {
    return null;
  }
  return `Digest of ${count} events (${why.join(", and ")}; ${AT_ONCE}):`;
}

/**
 * R-PAIR-04: what a paired relay kept while the link was down reads as one line marked
 * `replayed`, per relay and subscription, where the first of those events stands.
 */
function sectionLines(events: readonly OutboxEvent[]): string[] {
  const keyOf = (event: OutboxEvent) => `${event.relay ?? ""}\u0000${event.subscription_id ?? ""}`;
  const replays = groupBy(
    events.filter((e) => e.replayed === true),
    keyOf,
  );
  const lines: string[] = [];
  for (const event of events) {
    if (event.replayed !== true) {
      lines.push(LINE_PREFIX + eventLine(event));
      continue;
    }
    const group = replays.get(keyOf(event));
    if (group?.[0] !== event) {
      continue;
    }
    const parts = group.map((e) => eventLine({ ...e, relay: undefined }));
    lines.push(
      `${LINE_PREFIX}${event.relay ?? "?"} · replayed ${group.length} event${group.length === 1 ? "" : "s"} (subscription ${event.subscription_id ?? "?"}): ${parts.join(" | ")}`,
    );
  }
  return lines;
}

/** The text of one event message (R-DLV-01): the header line, then each section's lines. */
export function eventMessage(sections: readonly MessageSection[]): string {
  const lines = [EVENT_MESSAGE_HEADER];
  for (const section of sections) {
    const header = digestHeader(section);
    if (header !== null) {
      lines.push(header);
    }
    lines.push(...sectionLines(section.events));
  }
  return lines.join("\n");
}
