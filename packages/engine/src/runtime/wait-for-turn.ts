import { isOutage } from "../shared/outage";
import type { Wakeups } from "../wakeups";
import type { RuntimeContext } from "./runtime-context";
import type { TurnSnapshot } from "./session-runtime";
import { isWaitOver, type Snapshots } from "./turn-snapshot";
import type { WatchTurn } from "./turn-watch";

// Node fires a longer timer at once; no wait is that long (the longest wait is capped far below).
const MAX_TIMER_MS = 2_147_483_647;

export interface TurnWaits {
  wait(turnId: string, ms: number, signal?: AbortSignal): Promise<TurnSnapshot>;
  /** Ends every wait now, each with the snapshot of the moment (runtime shutdown). */
  endAll(): Promise<void>;
}

interface WaitParts {
  readonly ctx: RuntimeContext;
  readonly snapshots: Snapshots;
  readonly waiters: Wakeups;
  readonly watch: WatchTurn | undefined;
  readonly open: Set<TurnWait>;
}

/**
 * One wait on a turn. A relay holds thousands at once, so each is this one object with its
 * methods on the prototype (and two bound functions), not a handful of closures (issue 8 item 9:
 * bytes per held wait). It is also the listener of the caller's abort signal (`handleEvent`).
 */
class TurnWait {
  private settled = false;
  private removeWake: () => void = () => {};
  private unwatch: () => void = () => {};
  private timer: ReturnType<RuntimeContext["clock"]["setTimeout"]> | undefined;
  private readonly wake = this.lookIfOver.bind(this);
  private readonly timeUp = this.end.bind(this);

  constructor(
    private readonly parts: WaitParts,
    private readonly turnId: string,
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (snapshot: TurnSnapshot) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  begin(ms: number): void {
    const { waiters, watch, open, ctx } = this.parts;
    // The wake-up is registered before the first look, so an end between the two is not missed.
    this.removeWake = waiters.add(this.turnId, this.wake);
    this.unwatch = watch?.(this.turnId) ?? this.unwatch;
    open.add(this);
    if (ms <= 0 || this.signal?.aborted) {
      this.end();
      return;
    }
    this.timer = ctx.clock.setTimeout(this.timeUp, Math.min(ms, MAX_TIMER_MS));
    this.signal?.addEventListener("abort", this, { once: true });
    this.lookIfOver();
  }

  /** The caller's signal aborted (client gone): the wait ends with the snapshot of the moment. */
  handleEvent(): void {
    this.end();
  }

  /** Ends the wait now, with the snapshot of the moment. */
  end(): Promise<void> {
    return this.look(true);
  }

  private lookIfOver(): void {
    void this.look(false);
  }

  private async look(force: boolean): Promise<void> {
    try {
      const snapshot = await this.parts.snapshots.byId(this.turnId);
      if (!this.settled && (force || isWaitOver(snapshot.status))) {
        this.cleanup();
        this.resolve(snapshot);
      }
    } catch (error) {
      // While the database does not answer the wait goes on; it fails only when it ends.
      if (!this.settled && (force || !isOutage(error))) {
        this.cleanup();
        this.reject(error);
      }
    }
  }

  private cleanup(): void {
    this.settled = true;
    this.removeWake();
    this.unwatch();
    if (this.timer !== undefined) {
      this.parts.ctx.clock.clearTimeout(this.timer);
    }
    this.signal?.removeEventListener("abort", this);
    this.parts.open.delete(this);
  }
}

/**
 * Waits end at the first of: the turn ended, it waits on a question, `ms` of the clock's time
 * passed, or the caller's signal aborted. Each ends with the snapshot taken at that moment.
 */
export function createTurnWaits(
  ctx: RuntimeContext,
  parts: {
    readonly snapshots: Snapshots;
    readonly waiters: Wakeups;
    /** Set when other relay processes share the stores: their changes are looked for too. */
    readonly watch?: WatchTurn;
  },
): TurnWaits {
  const shared: WaitParts = { ctx, ...parts, watch: parts.watch, open: new Set() };
  return {
    wait(turnId, ms, signal) {
      return new Promise<TurnSnapshot>((resolve, reject) => {
        new TurnWait(shared, turnId, signal, resolve, reject).begin(ms);
      });
    },

    async endAll() {
      await Promise.all([...shared.open].map((wait) => wait.end()));
    },
  };
}
