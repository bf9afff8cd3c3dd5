import type { Clock, IdGenerator, TimerId } from "@oar/core";
import type { EngineStores } from "../ports/engine-stores";
import { amendMessages, type Sent, sendToWatchers } from "./sending";

/** Bounds of how long ahead of its due time a send is made ready (see `Stager.lead`). */
const MIN_LEAD_MS = 30;
const MAX_LEAD_MS = 250;
const FIRST_LEAD_MS = 100;
/** How many recent sends the lead learns from. */
const LEAD_MEMORY = 8;

export interface StagerDeps {
  readonly stores: Pick<EngineStores, "deliveries" | "transaction">;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly drivenFromOutside: (provider: string) => boolean;
  /** Watchers sent to per transaction. */
  readonly watchers: number;
}

/** The send was given up before its commit (the dispatcher closes): nothing it wrote lands. */
export class StagingCancelled extends Error {
  constructor() {
    super("The send made ready ahead of its time was given up before its commit.");
  }
}

/**
 * Sends made ready ahead of their due time: a window's end is known thirty seconds before it comes,
 * so its transaction — claims, reads, a hundred watchers' messages, marks and wake-ups — is written
 * before that time and only committed at it. What routing adds to those watchers meanwhile joins
 * the messages before the commit (`amendMessages`), so nothing arrives apart that would have arrived
 * together, and nothing arrives early: the messages carry the due time and become visible at it.
 *
 * Only where transactions run side by side (Postgres): the one made ready holds its watchers' locks
 * until its commit, and another sender skips them (SKIP LOCKED), as it skips any sender's.
 */
export interface Stager {
  /** How long before its due time to start a send: about twice the slowest recent one's work. */
  lead(): number;
  /**
   * Makes ready and, at `dueAt`, commits the send of deliveries due then, for watchers with none
   * due before `since` (those go out at once, in an ordinary pass). Gives what it sent.
   */
  stage(dueAt: number, since: number): Promise<Sent[]>;
  /** Resolves once no staged send is at work (one only waiting for its time is not). */
  busy(): Promise<void> | null;
  /** Gives up the send waiting for its time, and any later one; its transaction rolls back. */
  cancel(): void;
}

export function createStager(deps: StagerDeps): Stager {
  const { stores, clock } = deps;
  const recent: number[] = [];
  let cancelWait: (() => void) | null = null;
  let cancelled = false;
  let working: { readonly done: Promise<void>; readonly end: () => void } | null = null;
  const setWorking = (on: boolean) => {
    working?.end();
    working = null;
    if (on) {
      let end = () => {};
      const done = new Promise<void>((resolve) => {
        end = resolve;
      });
      working = { done, end };
    }
  };

  const waitUntil = (at: number) =>
    new Promise<void>((resolve, reject) => {
      if (cancelled) {
        reject(new StagingCancelled());
        return;
      }
      const ms = at - clock.now();
      if (ms <= 0) {
        resolve();
        return;
      }
      const timer: TimerId = clock.setTimeout(() => {
        cancelWait = null;
        resolve();
      }, ms);
      cancelWait = () => {
        clock.clearTimeout(timer);
        cancelWait = null;
        reject(new StagingCancelled());
      };
    });

  return {
    lead() {
      if (recent.length === 0) {
        return FIRST_LEAD_MS;
      }
      return Math.min(MAX_LEAD_MS, Math.max(MIN_LEAD_MS, 2 * Math.max(...recent)));
    },

    async stage(dueAt, since) {
      const started = clock.now();
      setWorking(true);
      try {
        return await stageIn(dueAt, since, started);
      } finally {
        setWorking(false);
      }
    },

    busy() {
      return working?.done ?? null;
    },

    cancel() {
      cancelled = true;
      cancelWait?.();
    },
  };

  async function stageIn(dueAt: number, since: number, started: number): Promise<Sent[]> {
    return stores.transaction(async (tx) => {
      const due = await tx.deliveries.claimDueDeliveries({
        now: dueAt,
        watchers: deps.watchers,
        after: since,
      });
      if (due.length === 0) {
        return [];
      }
      // Written as at their due time: the messages, wake-ups and marks carry it, and the cap and
      // echoes are decided as they would be then.
      const ctx = { stores: tx, ids: deps.ids, now: dueAt, drivenFromOutside: deps.drivenFromOutside };
      const sent = await sendToWatchers(ctx, due);
      recent.push(clock.now() - started);
      if (recent.length > LEAD_MEMORY) {
        recent.shift();
      }
      if (sent.length === 0) {
        // Only drops and holds: nobody hears them, they may land now.
        return [];
      }
      setWorking(false);
      await waitUntil(dueAt);
      setWorking(true);
      const late = await tx.deliveries.listDueOf({
        watchers: sent.map((message) => message.watcher),
        now: dueAt,
      });
      return late.length === 0 ? sent : amendMessages(ctx, sent, late);
    });
  }
}
