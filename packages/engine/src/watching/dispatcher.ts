import type { Clock, IdGenerator, Logger, TimerId } from "@oar/core";
import { isUrgent } from "@oar/scheduler";
import type { EngineObserver } from "../ports/engine-observer";
import type { EngineStores } from "../ports/engine-stores";
import type { OutboxRecord } from "../ports/event-store";
import { errorMessage } from "../shared/error-message";
import { CLOSE_GRACE_MS, settleWithin } from "../shared/settle-within";
import { claimDue, claimEarly, type EarlyClaim } from "./claim-ahead";
import { routeEvents } from "./routing";
import { type Sent, sendToWatchers } from "./sending";
import { createStager, StagingCancelled } from "./staging";
import { runDueTicks } from "./ticks";
import { WindowedWatchers } from "./windowed-watchers";

/** Outbox rows routed per transaction, and watchers sent to per transaction. */
const ROUTED_PER_PASS = 200;
const WATCHERS_PER_PASS = 200;
/** Up to this many rows waiting, a batch ends at its first urgent event (see `urgentFirst`). */
const FEW_WAITING = 20;
/** With other processes on the stores, how often to look for their work besides the LISTEN hint (DESIGN §9). */
export const SHARED_POLL_MS = 1_000;
/** After a failed pass (the database away), when to try again. */
const RETRY_MS = 1_000;

export interface DispatcherDeps {
  readonly stores: EngineStores;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly logger: Logger;
  /** Told of each delivery sent (and, by the schedule runner, each slot fired) once committed. */
  readonly observer: EngineObserver;
  readonly sharedStore: boolean;
  readonly drivenFromOutside: (provider: string) => boolean;
  /** Starts the watcher's queue once a message that starts a turn is committed. */
  readonly kick: (sessionId: string) => void;
}

/**
 * The subscription dispatcher: routes the outbox to watchers, runs heartbeats and stall checks,
 * and sends what is due — each step claimed in its own transaction, so several processes share
 * the work and none does it twice (DESIGN §9). It runs when poked (an event appended here, the
 * stores' hint of another process's), when the next due time comes, and every second when the
 * stores are shared.
 */
export interface Dispatcher {
  poke(): void;
  start(): void;
  /** Resolves when no pass runs or is asked for (tests, benchmarks: after time moved or events were appended). */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/**
 * With few rows waiting, a batch ends at its first urgent event when more follow: its watchers
 * hear it as soon as its own fan-out commits, not once the next urgent event's fan-out is written
 * too, and the next batch follows at once. A backlog goes in full batches, for throughput. A
 * batch routes as its rows one by one would, so where it ends changes no delivery.
 */
function urgentFirst(records: readonly OutboxRecord[]): readonly OutboxRecord[] {
  if (records.length > FEW_WAITING) {
    return records;
  }
  const first = records.findIndex((record) => isUrgent(record.kind));
  return first === -1 ? records : records.slice(0, first + 1);
}

export function createDispatcher(deps: DispatcherDeps): Dispatcher {
  const { stores, clock } = deps;
  let closed = false;
  let started = false;
  let running: Promise<void> | null = null;
  let again = false;
  let timer: TimerId | null = null;

  /** Sends what is due at `now` to up to WATCHERS_PER_PASS watchers, in the caller's transaction; true when there may be more. */
  const sendDue = async (tx: EngineStores, now: number, sent: Sent[]): Promise<boolean> => {
    const due = await tx.deliveries.claimDueDeliveries({ now, watchers: WATCHERS_PER_PASS });
    sent.push(
      ...(await sendToWatchers(
        { stores: tx, ids: deps.ids, now, drivenFromOutside: deps.drivenFromOutside },
        due,
      )),
    );
    return new Set(due.map((row) => row.watcher)).size === WATCHERS_PER_PASS;
  };

  /**
   * A batch with an urgent event claims, in its first flight, the watchers the event's session
   * last reached (see `claimEarly`): their fan-out then waits for no claim of its own.
   */
  const claimAheadOf = (
    tx: EngineStores,
    records: readonly OutboxRecord[],
    now: number,
  ): EarlyClaim | null => {
    if (!sendWhileRouting) {
      return null;
    }
    const sessions = records
      .filter(
        (record) => isUrgent(record.kind) && record.subscriptionId === null && record.sessionId !== null,
      )
      .map((record) => record.sessionId as string);
    const guess = windowed.of(sessions).slice(0, WATCHERS_PER_PASS);
    return guess.length === 0
      ? null
      : claimEarly(tx, { guess, now, before: records[0]?.seq ?? 0, batch: records });
  };

  /** Once a send committed: its watchers' turns start, and each delivery's lateness is told. */
  const kickAll = (sent: readonly Sent[]) => {
    const now = clock.now();
    for (const result of sent) {
      if (result.startsTurn) {
        deps.kick(result.watcher);
      }
      for (const row of result.rows) {
        deps.observer.deliverySent(now - row.dueAt);
      }
    }
  };

  /**
   * Whether routing also sends what it makes due at once (urgent events, windows they flush) in
   * its own transaction: one commit less before a question or an error reaches its watchers. A
   * pass that fails turns it off until a pass succeeds, so a send that keeps failing cannot hold
   * the routing back.
   */
  let sendWhileRouting = true;
  const windowed = new WindowedWatchers();
  /** Where this process last left the routing cursor, or null when it does not know. */
  let routedUpTo: number | null = null;

  /**
   * Routes one batch. `more`: rows may still wait. `sendNext`: a send pass should follow before
   * the next batch — not after a batch cut at an urgent event (a few rows wait), unless routing
   * made deliveries due that it could not send (a watcher held elsewhere, past 200).
   */
  const route = async (): Promise<{ readonly more: boolean; readonly sendNext: boolean }> => {
    const sent: Sent[] = [];
    let leftAt: number | null = null;
    let cutShort = false;
    let leftDue = false;

    const more = await stores.transaction(async (tx) => {
      // The events after where this process left the cursor are read in the same flight as the
      // cursor's claim (the read runs after the lock, on the same connection): one round trip
      // less, unless another process moved the cursor meanwhile and they are read again.
      const guess = routedUpTo;
      const [cursor, ahead] = await Promise.all([
        tx.deliveries.claimCursor(),
        guess === null ? undefined : tx.events.listEvents({ after: guess, limit: ROUTED_PER_PASS }),
      ]);
      if (cursor === null) {
        return false;
      }
      const waiting =
        cursor === guess && ahead !== undefined
          ? ahead
          : await tx.events.listEvents({ after: cursor, limit: ROUTED_PER_PASS });
      const records = urgentFirst(waiting);
      cutShort = records.length < waiting.length;
      const now = clock.now();
      const last = records.at(-1);
      const known = new Map(records.map((record) => [record.id, record.event]));
      const ctx = { stores: tx, ids: deps.ids, now, windowed };
      const early = claimAheadOf(tx, records, now);
      // Behind the batch's writes in one flight: the cursor, and the claim of the watchers it
      // made due at once with their sessions and wake-ups. Sending a flushed window closes it.
      await routeEvents(ctx, records, async ({ dueWatchers, flushed, before, fresh, storedDue }) => {
        const cursorSet = last === undefined ? undefined : tx.deliveries.setCursor(last.seq);
        if (dueWatchers.length === 0 || !sendWhileRouting) {
          leftDue = dueWatchers.length > 0;
          await cursorSet;
          return { open: flushed, unsent: fresh };
        }
        const among = dueWatchers.slice(0, WATCHERS_PER_PASS);
        const taking = claimDue(tx, early, {
          now,
          among,
          flushed: new Set(flushed),
          before,
          fresh,
          storedDue,
        });
        const [claim, stored, earlier] = await Promise.all([taking.claim, taking.pairs, taking.events]);
        const claimed = new Set(claim.watchers);
        leftDue = dueWatchers.some((watcher) => !claimed.has(watcher));
        const already = new Set(stored.map((pair) => `${pair.watcher}\n${pair.eventId}`));
        const toStore = fresh.filter((row) => !already.has(`${row.watcher}\n${row.eventId}`));
        const sending = { ...ctx, drivenFromOutside: deps.drivenFromOutside };
        const mine = toStore.filter((row) => claimed.has(row.watcher));
        const events = earlier.size === 0 ? known : new Map([...known, ...earlier]);
        sent.push(...(await sendToWatchers(sending, claim.due, taking.reads, events, mine)));
        await cursorSet;
        // A watcher another process is sending to was not claimed: its window closes as a row
        // update, and what the batch made due for it waits, stored pending, for that process.
        return {
          open: flushed.filter((watcher) => !claimed.has(watcher)),
          unsent: toStore.filter((row) => !claimed.has(row.watcher)),
        };
      });
      leftAt = last?.seq ?? cursor;
      return cutShort || records.length === ROUTED_PER_PASS;
    });
    // A guess: after a failure or a skipped claim, a wrong one costs the pass one more read.
    routedUpTo = leftAt ?? routedUpTo;
    kickAll(sent);
    return { more, sendNext: !cutShort || leftDue };
  };

  const send = async (): Promise<boolean> => {
    const sent: Sent[] = [];
    const more = await stores.transaction((tx) => sendDue(tx, clock.now(), sent));
    kickAll(sent);
    return more;
  };

  /**
   * On a store that takes concurrent transactions, a window's end (any due time ahead) is written
   * before it comes and committed at it (see `Stager`); one staged send at a time.
   */
  const stager = deps.sharedStore
    ? createStager({
        stores,
        clock,
        ids: deps.ids,
        drivenFromOutside: deps.drivenFromOutside,
        watchers: WATCHERS_PER_PASS,
      })
    : null;
  let staging: { readonly dueAt: number; readonly since: number; readonly done: Promise<void> } | null = null;
  let stageTimer: TimerId | null = null;

  const startStaging = (dueAt: number) => {
    if (stager === null || staging !== null || closed) {
      return;
    }
    const since = clock.now();
    const done = stager
      .stage(dueAt, since)
      .then(kickAll)
      .catch((error: unknown) => {
        if (!(error instanceof StagingCancelled)) {
          deps.logger.warn(
            "A send made ready ahead of its time failed; the dispatcher sends it at its time.",
            {
              error: errorMessage(error),
            },
          );
        }
      })
      .finally(() => {
        staging = null;
        // What it left (a watcher it could not take, a delivery that could not join) goes now.
        poke();
      });
    staging = { dueAt, since, done };
  };

  const stageAhead = (delivery: number | null) => {
    if (stageTimer !== null) {
      clock.clearTimeout(stageTimer);
      stageTimer = null;
    }
    if (stager === null || delivery === null || staging !== null || closed) {
      return;
    }
    const ms = delivery - stager.lead() - clock.now();
    if (ms > 0) {
      stageTimer = clock.setTimeout(() => {
        stageTimer = null;
        startStaging(delivery);
      }, ms);
    }
  };

  const arm = async () => {
    const [pending, tickAt] = await Promise.all([
      stores.deliveries.nextDeliveryDueAt(),
      stores.subscriptions.nextTickAt(),
    ]);
    // Deliveries a staged send holds are its own to send: its end looks again.
    const delivery =
      pending !== null && staging !== null && pending > staging.since && pending <= staging.dueAt
        ? null
        : pending;
    const due = [delivery, tickAt].filter((at): at is number => at !== null);
    const poll = deps.sharedStore ? clock.now() + SHARED_POLL_MS : null;
    const next = Math.min(...due, ...(poll === null ? [] : [poll]));
    schedule(Number.isFinite(next) ? next - clock.now() : null);
    stageAhead(delivery);
  };

  /**
   * What comes due while a pass runs (a window's end behind a hundred watchers' urgent send) goes
   * out beside it, in a transaction of its own on another connection, rather than after it. Only
   * on a store that takes concurrent transactions (Postgres); SKIP LOCKED gives each watcher to
   * one of the two. The pass then looks again, as it would have.
   */
  let beside: Promise<void> | null = null;
  const sendBeside = () => {
    if (!deps.sharedStore || beside !== null || closed) {
      return;
    }
    beside = (async () => {
      try {
        while ((await send()) && !closed) {}
        // The pass arms the next timer when it ends; while it runs, this does.
        if (running !== null && !closed) {
          await arm();
        }
      } catch (error) {
        deps.logger.warn("A send beside the event dispatcher's pass failed; the pass tries again.", {
          error: errorMessage(error),
        });
      }
    })().finally(() => {
      beside = null;
    });
  };

  const schedule = (ms: number | null) => {
    if (timer !== null) {
      clock.clearTimeout(timer);
      timer = null;
    }
    if (ms !== null && !closed) {
      timer = clock.setTimeout(
        () => {
          timer = null;
          if (running !== null) {
            sendBeside();
          }
          poke();
        },
        Math.max(0, ms),
      );
    }
  };

  const routeAndSend = async () => {
    // What each routed batch makes due goes out before the next batch is routed; a new event
    // (a poke) is routed between two sending transactions, not after all of them.
    for (;;) {
      const { more, sendNext } = await route();
      // At least one sending transaction a pass, so a stream of pokes cannot starve the windows
      // (but for a batch cut at an urgent event: the next batch follows at once).
      while (sendNext && (await send()) && !again && !closed) {}
      if (!more || closed) {
        return;
      }
    }
  };

  const pass = async () => {
    await routeAndSend();
    // Ticks append events (heartbeats, stalls) that another routing takes, when they made any.
    let appended = false;
    for (;;) {
      const ticked = await runDueTicks(stores, clock.now());
      appended ||= ticked.appended;
      if (!ticked.more || closed) {
        break;
      }
    }
    if (appended) {
      await routeAndSend();
    }
    await arm();
  };

  const loop = async () => {
    do {
      again = false;
      if (closed) {
        return;
      }
      try {
        await pass();
        sendWhileRouting = true;
      } catch (error) {
        sendWhileRouting = false;
        deps.logger.warn("The event dispatcher's pass failed; it tries again.", {
          error: errorMessage(error),
        });
        schedule(RETRY_MS);
      }
    } while (again && !closed);
  };

  function poke() {
    if (closed || !started) {
      return;
    }
    if (running !== null) {
      again = true;
      return;
    }
    running = loop().finally(() => {
      running = null;
    });
  }

  return {
    poke,
    start() {
      started = true;
      poke();
    },
    async settled() {
      // A staged send only waiting for its time is at rest, as a timer is.
      while (running !== null || beside !== null || stager?.busy()) {
        await Promise.all([running, beside, stager?.busy()]);
      }
    },
    async close() {
      closed = true;
      schedule(null);
      stageAhead(null);
      stager?.cancel();
      await settleWithin(clock, Promise.all([running, beside, staging?.done]), CLOSE_GRACE_MS);
    },
  };
}
