import { lazyProperties, lazyPrototypeProperties, overriding } from "@oar/core";
import type { EngineStores } from "@oar/engine";
import type { Database } from "../database";
import { createCardStore } from "./card-store";
import { createDeliveryStore } from "./delivery-store";
import { createEventStore } from "./event-store";
import { createGroupStore } from "./group-store";
import {
  guardStore,
  isOutage,
  type StoreCallListener,
  sqlStateOf,
  timed,
  unavailableError,
  withDeadline,
} from "./guard";
import { createLeaseStore } from "./lease-store";
import { createLoopCounterStore } from "./loop-counter-store";
import { createPeerStore } from "./peer-store";
import { createQuestionStore } from "./question-store";
import { createRetentionStore } from "./retention-store";
import { announceScheduleChanges, createScheduleStore } from "./schedule-store";
import { createSessionReadStore } from "./session-read-store";
import { createSessionStore } from "./session-store";
import { createSettingsStore } from "./settings-store";
import { createSubscriptionStore } from "./subscription-store";
import { createTaskStore } from "./task-store";
import { createTokenStore } from "./token-store";
import { createToolCallStore } from "./tool-call-store";
import { TransactionCalls } from "./transaction-calls";
import { createUnlockStore } from "./unlock-store";

/** Every store port this package implements, on one database, and transactions over them. */
export type Stores = EngineStores;

/** How long one database call, and one transaction, may go unanswered (a frozen link). */
export interface StoreDeadlines {
  readonly callMs: number;
  readonly transactionMs: number;
}

/**
 * Calls `listener` when another relay process may have appended outbox events; returns the
 * function that stops it. The postgres.js driver LISTENs for it; PGlite has no other process.
 */
export type ForeignEventsHint = (listener: () => void) => () => void;

export interface StoreOptions {
  readonly deadlines?: StoreDeadlines;
  readonly foreignEvents?: ForeignEventsHint;
  /** Other processes changed schedules (LISTEN on the schedules' channel). */
  readonly foreignSchedules?: ForeignEventsHint;
  readonly vacuums?: boolean;
  /** Told each store call's and each transaction's time (the relay's metrics). */
  readonly onStoreCall?: StoreCallListener;
}

// A transaction Postgres ended so that another could go on (a deadlock: two changes locking a
// session's row and the outbox's head in opposite orders; a serialization failure) changed nothing
// and goes through when run again, which Postgres asks its clients to do. Its work then runs
// again from the start: it writes through its stores only, as it must for a rollback anyway.
const RUN_AGAIN_SQLSTATES: ReadonlySet<string> = new Set(["40P01", "40001"]);
const TRANSACTION_RUNS = 5;

/**
 * The stores on `db`. `transaction` runs its work on stores bound to one database transaction;
 * inside it, a transaction joins the outer one (the stores' own multi-statement writes become
 * savepoints there, so a refused name or membership leaves it usable). With `deadlines`, a call
 * or transaction the database does not answer in time fails with REMOTE_RELAY_UNAVAILABLE.
 * `foreignEvents` becomes the event store's `onForeignEvents`, `foreignSchedules` the schedule
 * store's `onForeignChanges` (with `announceChanges`). `vacuums`: the database runs no
 * autovacuum (PGlite), so the retention store vacuums what it pruned (never in a transaction).
 */
export function createStores(db: Database, options: StoreOptions = {}): Stores {
  const { deadlines, foreignEvents, foreignSchedules, vacuums = false, onStoreCall } = options;
  const once: Stores["transaction"] = (work) =>
    timed(onStoreCall, "transaction", () =>
      withDeadline("transaction", deadlines?.transactionMs, () =>
        db.transaction(async (tx) => {
          const calls = new TransactionCalls();
          try {
            const stores = new TransactionStores(tx, deadlines?.callMs, foreignEvents, calls, onStoreCall);
            return await work(stores as unknown as Stores);
          } finally {
            await calls.end();
          }
        }),
      ),
    );
  const transaction: Stores["transaction"] = async (work) => {
    for (let run = 1; ; run++) {
      try {
        return await once(work);
      } catch (cause) {
        if (run < TRANSACTION_RUNS && RUN_AGAIN_SQLSTATES.has(sqlStateOf(cause) ?? "")) {
          continue;
        }
        // The work's own refusals and failures pass as they are; only an outage is translated.
        throw isOutage(cause) ? unavailableError("transaction", cause) : cause;
      }
    }
  };
  return rootStores(
    { db, deadlineMs: deadlines?.callMs, foreignEvents, foreignSchedules, vacuums, onStoreCall },
    transaction,
  );
}

type Port = Exclude<keyof Stores, "transaction">;

/** Each port's name (in errors) and its store on a database handle. */
const PORTS: { readonly [P in Port]: readonly [string, (db: Database, binding: Binding) => Stores[P]] } = {
  sessions: ["SessionStore", createSessionStore],
  groups: ["GroupStore", createGroupStore],
  settings: ["SettingsStore", createSettingsStore],
  tokens: ["TokenStore", createTokenStore],
  leases: ["LeaseStore", createLeaseStore],
  cards: ["CardStore", createCardStore],
  unlocks: ["UnlockStore", createUnlockStore],
  loopCounters: ["LoopCounterStore", createLoopCounterStore],
  questions: ["QuestionStore", createQuestionStore],
  peers: ["PeerStore", createPeerStore],
  events: ["EventStore", createEventStore],
  subscriptions: ["SubscriptionStore", createSubscriptionStore],
  deliveries: ["DeliveryStore", createDeliveryStore],
  tasks: ["TaskStore", createTaskStore],
  schedules: ["ScheduleStore", createScheduleStore],
  toolCalls: ["ToolCallStore", createToolCallStore],
  reads: ["SessionReadStore", createSessionReadStore],
  retention: [
    "RetentionStore",
    (db, binding) => createRetentionStore(db, { vacuums: binding.vacuums === true }),
  ],
};

/** What a port's store is made on. */
interface Binding {
  readonly db: Database;
  readonly deadlineMs: number | undefined;
  readonly foreignEvents: ForeignEventsHint | undefined;
  readonly foreignSchedules?: ForeignEventsHint | undefined;
  readonly calls?: TransactionCalls;
  /** Only outside transactions: VACUUM refuses to run inside one. */
  readonly vacuums?: boolean;
  readonly onStoreCall?: StoreCallListener | undefined;
}

function makePort<P extends Port>(binding: Binding, port: P): Stores[P] {
  const [name, make] = PORTS[port];
  const guarded = guardStore(name, make(binding.db, binding), {
    deadlineMs: binding.deadlineMs,
    calls: binding.calls,
    onCall: binding.onStoreCall,
  }) as Stores[P];
  const { foreignEvents, foreignSchedules } = binding;
  if (port === "schedules" && foreignSchedules !== undefined) {
    const schedules = guarded as Stores["schedules"];
    return overriding(schedules, {
      onForeignChanges: foreignSchedules,
      announceChanges: () => announceScheduleChanges(binding.db),
    }) as Stores[P];
  }
  if (port !== "events" || foreignEvents === undefined) {
    return guarded;
  }
  // The hint is not guarded: it returns its stop function at once and runs no query of its own.
  return overriding(guarded as Stores["events"], { onForeignEvents: foreignEvents }) as Stores[P];
}

/**
 * One transaction's stores, its ports made on first use (a transaction uses a few of them) and
 * the rest of it on the prototype: a transaction allocates one object, not a getter per port.
 */
class TransactionStores implements Binding {
  constructor(
    readonly db: Database,
    readonly deadlineMs: number | undefined,
    readonly foreignEvents: ForeignEventsHint | undefined,
    readonly calls: TransactionCalls,
    readonly onStoreCall: StoreCallListener | undefined,
  ) {}

  /** A transaction inside joins this one. */
  transaction<T>(work: (stores: Stores) => Promise<T>): Promise<T> {
    return work(this as unknown as Stores);
  }
}

lazyPrototypeProperties(TransactionStores.prototype, Object.keys(PORTS) as Port[], makePort);

/** The stores outside any transaction: made once, on first use, as own properties (wrappers spread them). */
function rootStores(binding: Binding, transaction: Stores["transaction"]): Stores {
  const makers = Object.fromEntries(
    (Object.keys(PORTS) as Port[]).map((port) => [port, () => makePort(binding, port)]),
  );
  const stores = lazyProperties(makers as { [P in Port]: () => Stores[P] }) as Stores;
  Object.defineProperty(stores, "transaction", { value: transaction, enumerable: true });
  return stores;
}
