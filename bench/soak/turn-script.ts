import type { Random } from "@oar/core/testing";

/**
 * The prompts of the soak, for the `script` agent. Each turn writes one line `<marker> <task id>`
 * to the run's marks file through a shell task it waits for, so every execution of a turn leaves
 * a trace outside the relay: a turn run twice writes two lines, a turn that never ran none.
 */
export class TurnScripts {
  private next = 0;
  /** How long each marked turn sleeps on purpose: the figures leave those turns' time out. */
  private readonly sleeps = new Map<string, number>();

  constructor(
    /** `sk<run id>`: every marker begins with it. */
    readonly runMarker: string,
    readonly marksFile: string,
    private readonly random: Random,
  ) {}

  /** A new marker: `<run marker>-<kind><n>`, unique in the run. */
  marker(kind: string): string {
    this.next += 1;
    return `${this.runMarker}-${kind}${this.next}`;
  }

  /**
   * A turn that writes its line and replies its marker. Most are quick; some sleep a little, a
   * few long enough (5–10 s) for a kill to catch them running; the sleep comes before or after
   * the line, so a killed turn may or may not have written it.
   */
  marked(marker: string, extra: readonly string[] = []): string {
    const roll = this.random.next();
    const sleep = roll < 0.7 ? 0 : roll < 0.94 ? this.random.int(200, 2_000) : this.random.int(5_000, 10_000);
    const before = sleep > 0 && this.random.bool();
    this.sleeps.set(marker, sleep);
    return [
      ...(before ? [`!sleep ${sleep}`] : []),
      `!task mark :: echo ${marker} $OAR_TASK_ID >> ${this.marksFile}`,
      "!wait-task mark",
      ...extra,
      ...(sleep > 0 && !before ? [`!sleep ${sleep}`] : []),
      `!reply ${marker}`,
    ].join("\n");
  }

  sleepOf(marker: string): number {
    return this.sleeps.get(marker) ?? 0;
  }

  /**
   * A marked turn that also starts a background task printing `<marker> tick <n>` every second
   * for at most five minutes; the run marker in its command line finds it if it is left behind.
   */
  withBackgroundTask(marker: string): string {
    const loop = `i=0; while [ $i -lt 300 ]; do echo ${marker} tick $i; i=$((i+1)); sleep 1; done # ${this.runMarker}`;
    // A name of its own: a task a stop did not reach must not fail the next turn's (one name runs once).
    return this.marked(marker, [`!task bg-${marker} :: ${loop}`]);
  }
}

/** The id of the background task a `withBackgroundTask` turn started, from its reply. */
export function backgroundTaskId(reply: string): string | null {
  return /task bg-\S+ started: (tsk_[a-z0-9]+)/.exec(reply)?.[1] ?? null;
}
