const MINUTE_MS = 60_000;

/** A schedule's timing as the store keeps it: all instants in epoch milliseconds. */
export interface ScheduleTiming {
  /** The first firing (GAP-18): `at`, or one interval after creation when only every_minutes was given. */
  readonly anchor: number;
  /** Absent for a once-only schedule. */
  readonly everyMinutes?: number;
  /** The slot of the last firing, if it has fired. */
  readonly lastSlot?: number;
}

/**
 * GAP-18: only `at` fires once at `at`; only `every_minutes` fires first one interval after
 * creation; both fire first at `at`, then on that grid.
 */
export function scheduleAnchor(args: { at?: number; everyMinutes?: number; createdAt: number }): number {
  if (args.at !== undefined) {
    return args.at;
  }
  if (args.everyMinutes === undefined) {
    throw new RangeError("a schedule needs at or every_minutes (R-SCH-05)");
  }
  return args.createdAt + args.everyMinutes * MINUTE_MS;
}

/**
 * The slot to fire at `now`, or undefined when nothing is due. After downtime, several missed
 * slots collapse into one firing, the latest one (R-SCH-10), so the grid is kept (R-SCH-11).
 */
export function dueSlot(timing: ScheduleTiming, now: number): number | undefined {
  const next = nextFireAt(timing);
  if (next === undefined || next > now) {
    return undefined;
  }
  if (timing.everyMinutes === undefined) {
    return next;
  }
  const every = timing.everyMinutes * MINUTE_MS;
  return timing.anchor + Math.floor((now - timing.anchor) / every) * every;
}

/** When the schedule fires next, from what it has already fired; undefined once a once-only fired. */
export function nextFireAt(timing: ScheduleTiming): number | undefined {
  if (timing.lastSlot === undefined) {
    return timing.anchor;
  }
  if (timing.everyMinutes === undefined) {
    return undefined;
  }
  return slotAfter(timing.anchor, timing.everyMinutes, timing.lastSlot);
}

/** The first slot of the grid strictly after `instant`. */
export function slotAfter(anchor: number, everyMinutes: number, instant: number): number {
  const every = everyMinutes * MINUTE_MS;
  if (instant < anchor) {
    return anchor;
  }
  return anchor + (Math.floor((instant - anchor) / every) + 1) * every;
}

/** Slots passed over between the last firing and `slot` (counted as skipped, R-SCH-13). */
export function missedSlots(timing: ScheduleTiming, slot: number): number {
  if (timing.everyMinutes === undefined) {
    return 0;
  }
  const first = nextFireAt(timing);
  if (first === undefined || slot <= first) {
    return 0;
  }
  return Math.round((slot - first) / (timing.everyMinutes * MINUTE_MS));
}

/** What a schedule that is due does at `now`: the slot it fires for, the slots it passed over, the next one. */
export interface SlotToFire {
  readonly slot: number;
  /** Slots between the one it waited for and `slot`, passed over while nothing ran (R-SCH-10). */
  readonly passedOver: number;
  /** The next slot of the grid; undefined for a once-only schedule. */
  readonly next: number | undefined;
}

/**
 * The slot a schedule waiting for `nextFireAt` fires for at `now`, or undefined when it is not
 * due: after downtime the latest slot of the grid, once (R-SCH-10), and the grid goes on from it
 * (R-SCH-11). Epoch arithmetic: a daylight-saving change moves no slot.
 */
export function slotToFire(
  timing: { readonly anchor: number; readonly everyMinutes?: number; readonly nextFireAt: number },
  now: number,
): SlotToFire | undefined {
  if (timing.nextFireAt > now) {
    return undefined;
  }
  if (timing.everyMinutes === undefined) {
    return { slot: timing.nextFireAt, passedOver: 0, next: undefined };
  }
  const every = timing.everyMinutes * MINUTE_MS;
  const slot = Math.max(timing.nextFireAt, timing.anchor + Math.floor((now - timing.anchor) / every) * every);
  return { slot, passedOver: Math.round((slot - timing.nextFireAt) / every), next: slot + every };
}
