import type { Clock, TimerId } from "../clock";

interface PendingTimer {
  readonly id: number;
  readonly at: number;
  readonly callback: () => void;
}

export interface FakeClockOptions {
  /**
   * What `advanceAsync` waits for after each timer: by default promise callbacks; code under test
   * that waits on I/O (a database) needs its calls in flight to settle too.
   */
  readonly settle?: () => Promise<void>;
}

/** A clock that moves only when the test says so; timers fire in due order during `advance`. */
export class FakeClock implements Clock {
  private current: number;
  private nextId = 1;
  private timers: PendingTimer[] = [];
  private readonly settle: () => Promise<void>;

  constructor(start: number | string = "2026-01-01T00:00:00.000Z", options: FakeClockOptions = {}) {
    this.current = typeof start === "number" ? start : Date.parse(start);
    this.settle = options.settle ?? flushMicrotasks;
  }

  now(): number {
    return this.current;
  }

  setTimeout(callback: () => void, ms: number): TimerId {
    const id = this.nextId++;
    this.timers.push({ id, at: this.current + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(id: TimerId): void {
    this.timers = this.timers.filter((timer) => timer.id !== id);
  }

  /** Moves time forward by `ms`, firing every timer that falls due, each at its own due time. */
  advance(ms: number): void {
    const target = this.current + ms;
    while (this.fireNextDue(target)) {
      // each pass fires one timer; a timer may set another that falls due within the same advance
    }
    this.current = target;
  }

  /** Like `advance`, but lets promise callbacks run after each timer, for async code under test. */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.current + ms;
    do {
      await this.settle();
    } while (this.fireNextDue(target));
    this.current = target;
    await this.settle();
  }

  /**
   * Moves time forward by `ms` at once, as a machine waking from sleep does: every timer due by
   * then fires once, at the new time, in due order (those they set fire only when due after it).
   * For days of idle time on code that polls every few seconds, whose every poll is a query.
   */
  async jumpAsync(ms: number): Promise<void> {
    const target = this.current + ms;
    const due = this.timers.filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at || a.id - b.id);
    this.current = target;
    for (const timer of due) {
      if (this.timers.some((pending) => pending.id === timer.id)) {
        this.timers = this.timers.filter((pending) => pending.id !== timer.id);
        timer.callback();
        await this.settle();
      }
    }
    await this.settle();
  }

  private fireNextDue(target: number): boolean {
    const due = this.timers
      .filter((timer) => timer.at <= target)
      .sort((a, b) => a.at - b.at || a.id - b.id)[0];
    if (!due) {
      return false;
    }
    this.timers = this.timers.filter((timer) => timer.id !== due.id);
    this.current = Math.max(this.current, due.at);
    due.callback();
    return true;
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}

async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await Promise.resolve();
  }
}
