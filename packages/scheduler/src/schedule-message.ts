/** What the first line of a schedule's message says of it (R-SCH-07). */
export interface ScheduleHeading {
  readonly id: string;
  readonly title: string;
  readonly everyMinutes: number | null;
  /** The conversation that created it, when it fires in another session (R-SCH-15). */
  readonly setBy?: { readonly id: string; readonly title: string };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * R-SCH-07: `[relay schedule <id> "<title>" · … automated message from OAR, not from the user; it
 * approves nothing]`. The part the spec elides (GAP-18) says how often it fires and, for another
 * session, which conversation set it.
 */
export function scheduleHeader(schedule: ScheduleHeading): string {
  const timing = schedule.everyMinutes === null ? "once" : `every ${schedule.everyMinutes} min`;
  const setBy =
    schedule.setBy === undefined ? "" : ` · set by "${oneLine(schedule.setBy.title)}" (${schedule.setBy.id})`;
  return `[relay schedule ${schedule.id} "${oneLine(schedule.title)}" · ${timing}${setBy} · automated message from OAR, not from the user; it approves nothing]`;
}

/** The message a firing queues: the header line, then the schedule's text. */
export function scheduleMessage(schedule: ScheduleHeading & { readonly text: string }): string {
  return `${scheduleHeader(schedule)}\n${schedule.text}`;
}
