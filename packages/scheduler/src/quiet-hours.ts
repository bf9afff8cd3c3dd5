import type { QuietHours } from "@oar/schema";
import { format as formatInZone } from "date-fns-tz";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/**
 * How far back `isQuiet` looks for a clock that went back. It covers every backward step in
 * tzdata (2025c: the largest since 1970 is 7 h) and stays well under the shortest gap between two
 * clock changes of one zone (about 7 days since 1970, 3 weeks in 2010–2030), so it never spans
 * two changes. `quietUntil` relies on the same gap: at most one change between two readings.
 */
const LOOKBACK_MS = DAY_MS;
/** Each step of `quietUntil` crosses one transition; a window of under a day meets at most two. */
const MAX_STEPS = 8;

/** The window with its times as minutes of the day. */
interface Window {
  readonly from: number;
  readonly to: number;
  readonly tz: string;
}

function toWindow(window: QuietHours): Window {
  return { from: minuteOfDay(window.from), to: minuteOfDay(window.to), tz: window.tz };
}

function minuteOfDay(hhmm: string): number {
  return Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
}

function mod(a: number, n: number): number {
  return ((a % n) + n) % n;
}

/** [from, to), cyclic when the window spans midnight; empty when from = to, which the schema refuses. */
function inWindow(window: Window, minute: number): boolean {
  if (window.from === window.to) {
    return false;
  }
  return window.from < window.to
    ? minute >= window.from && minute < window.to
    : minute >= window.from || minute < window.to;
}

// --- The zone's clock, read through date-fns-tz ---------------------------------------------

/**
 * Local wall-clock time minus UTC at instant `at`, in ms. date-fns-tz's `format` with the `xxx`
 * token reads the zone's offset at the instant itself; its `toZonedTime` would not do here, as it
 * sets the wall time on a Date of the host's zone, which moves a time the host's clock skips (a
 * London 02:30 on a Berlin host reads 03:30). Whole minutes, as every zone has been since 1972.
 */
function offsetAt(tz: string, at: number): number {
  const text = formatInZone(at, "xxx", { timeZone: tz });
  const match = OFFSET_RE.exec(text);
  if (match === null) {
    throw new RangeError(`cannot read the clock of time zone ${tz}: ${text}`);
  }
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return (match[1] === "-" ? -minutes : minutes) * MINUTE_MS;
}

const OFFSET_RE = /^([+-])(\d{2}):(\d{2})$/;

/** Clock changes found so far, per zone: the events of one night all cross the same change. */
const knownTransitions = new Map<string, number[]>();
const KNOWN_TRANSITIONS_MAX = 64;

/**
 * The first instant in (lo, hi] whose offset is not `offset`, given offset(lo) = offset and
 * offset(hi) != offset with one transition between. Bisects whole minutes (tzdata transitions
 * fall on them), then milliseconds in case one does not.
 */
function findTransition(tz: string, lo: number, hi: number, offset: number): number {
  let known = knownTransitions.get(tz);
  const hit = known?.find((transition) => transition > lo && transition <= hi);
  if (hit !== undefined) {
    return hit;
  }
  const found = bisectTransition(tz, lo, hi, offset);
  if (known === undefined || known.length >= KNOWN_TRANSITIONS_MAX) {
    known = [];
    knownTransitions.set(tz, known);
  }
  known.push(found);
  return found;
}

function bisectTransition(tz: string, lo: number, hi: number, offset: number): number {
  let a = Math.floor(lo / MINUTE_MS);
  let b = Math.ceil(hi / MINUTE_MS);
  while (b - a > 1) {
    const mid = Math.floor((a + b) / 2);
    if (offsetAt(tz, mid * MINUTE_MS) === offset) {
      a = mid;
    } else {
      b = mid;
    }
  }
  let high = Math.min(hi, b * MINUTE_MS);
  let low = Math.max(lo, high - MINUTE_MS);
  if (offsetAt(tz, high - 1) === offset) {
    return high;
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (offsetAt(tz, mid) === offset) {
      low = mid;
    } else {
      high = mid;
    }
  }
  return high;
}

// --- Membership ------------------------------------------------------------------------------

function quietAt(window: Window, at: number, offset: number): boolean {
  const local = at + offset;
  if (!inWindow(window, Math.floor(mod(local, DAY_MS) / MINUTE_MS))) {
    return false;
  }
  return !closedForSecondPass(window, at, offset, local);
}

/**
 * R-FEW-13: on the night the clocks go back, when the local `to` lies in the repeated range,
 * the window ended on the first pass and stays shut for the whole second pass.
 */
function closedForSecondPass(window: Window, at: number, offset: number, local: number): boolean {
  const before = offsetAt(window.tz, at - LOOKBACK_MS);
  if (before <= offset) {
    return false;
  }
  // The clock went back by `step` at some T in (at - LOOKBACK, at]. The repeated local range is
  // [T + offset, T + before); `at` is on its second pass when its local time was already shown,
  // under the earlier offset, `step` earlier, that is when that instant still precedes T.
  const step = before - offset;
  if (offsetAt(window.tz, at - step) !== before) {
    return false;
  }
  // A local time x lies in the repeated range when both x - before (first pass, before T) and
  // x - offset (second pass, from T) read x. The range holds `local` and is `step` long.
  const lastTo = local - mod(local - window.to * MINUTE_MS, DAY_MS);
  for (const x of [lastTo, lastTo + DAY_MS]) {
    if (
      Math.abs(x - local) < step &&
      offsetAt(window.tz, x - before) === before &&
      offsetAt(window.tz, x - offset) === offset
    ) {
      return true;
    }
  }
  return false;
}

// --- Public API ------------------------------------------------------------------------------

/**
 * Whether `at` lies inside the daily window (R-FEW-07/08): its local time of day, to the minute,
 * is in [from, to) of the zone's clock (R-FEW-12), cyclic when the window spans midnight. A
 * skipped `to` or `from` takes effect at the jump (R-FEW-14). When the clocks go back and `to`
 * occurs twice, the second pass of the repeated range is outside (R-FEW-13); a `from` in the
 * repeated range opens the window again on the second pass from `from` on (R-FEW-15).
 */
export function isQuiet(window: QuietHours, at: number): boolean {
  return quietAt(toWindow(window), at, offsetAt(window.tz, at));
}

/**
 * The instant the window containing `at` ends (the first instant >= at that is outside), or
 * null when `at` is outside. Computed per stretch of constant UTC offset: the end under the
 * current offset, or the next transition when one comes first.
 */
export function quietUntil(window: QuietHours, at: number): number | null {
  const w = toWindow(window);
  let t = at;
  let offset = offsetAt(w.tz, t);
  if (!quietAt(w, t, offset)) {
    return null;
  }
  for (let step = 0; step < MAX_STEPS; step++) {
    // The first instant at which the clock, still at `offset`, reads `to`; t is inside, so later.
    const end = t + (mod(w.to * MINUTE_MS - (t + offset), DAY_MS) || DAY_MS);
    if (offsetAt(w.tz, end) === offset) {
      return end;
    }
    const transition = findTransition(w.tz, t, end, offset);
    const after = offsetAt(w.tz, transition);
    if (!quietAt(w, transition, after)) {
      return transition;
    }
    t = transition;
    offset = after;
  }
  throw new RangeError(`quiet hours in ${w.tz} did not end within ${MAX_STEPS} clock changes`);
}

/** "23:00–06:00 Europe/Berlin" (en dash), as message lines and approval cards show it (R-FEW-09, R-FEW-24). */
export function describeQuietHours(window: QuietHours): string {
  return `${window.from}–${window.to} ${window.tz}`;
}
