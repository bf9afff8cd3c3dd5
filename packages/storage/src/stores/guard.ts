import { RelayError } from "@oar/core";
import type { TransactionCalls } from "./transaction-calls";

// SQLSTATE classes worth a retry: connection failures, serialization failures and deadlocks, shutdown.
const RETRYABLE_SQLSTATE = /^(08|40|57P)/;

/** The SQLSTATE of a driver error, found along the cause chain (drizzle wraps driver errors). */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) {
      return code;
    }
    current = current.cause;
  }
  return undefined;
}

function rootMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) {
    current = current.cause;
  }
  return current instanceof Error ? current.message : String(current);
}

// The driver's codes for a connection that failed, closed or never opened (postgres.js, Node's net).
const CONNECTION_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

// SQLSTATEs of a database that cannot serve now: connection exceptions, too many connections,
// shutdowns, and the server's own timeouts (a query or transaction it gave up on).
const UNAVAILABLE_SQLSTATE = /^(08...|53300|57P0[1-3]|57014|25P03)$/;

/** Whether the failure means the database does not answer, rather than refusing a query. */
export function isOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof DatabaseDeadlineError) {
      return true;
    }
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) {
      return true;
    }
    current = current.cause;
  }
  return false;
}

/** A database call that did not answer in time: the link may be frozen (DESIGN §4, 503). */
export class DatabaseDeadlineError extends Error {
  constructor(
    readonly operation: string,
    readonly ms: number,
  ) {
    super(`no answer within ${ms / 1000} s`);
    this.name = "DatabaseDeadlineError";
  }
}

/**
 * What an agent or the owner is told while the database does not answer (DESIGN §4): HTTP 503,
 * nothing was changed (a transaction that did not commit changed nothing), and the relay
 * reconnects by itself.
 */
export function unavailableError(operation: string, cause: unknown): RelayError {
  return new RelayError(
    "REMOTE_RELAY_UNAVAILABLE",
    `The relay's database does not answer (${rootMessage(cause)}). Nothing was changed; try again in a moment: the relay reconnects by itself.`,
    { cause, retryable: true, context: { operation } },
  );
}

/**
 * A store call's failure as a RelayError: REMOTE_RELAY_UNAVAILABLE when the database does not
 * answer, else the local `STORAGE` (a bug: a query the database refused). RelayErrors pass through.
 */
export function toStoreError(operation: string, cause: unknown): RelayError {
  if (isOutage(cause) && !(cause instanceof RelayError)) {
    return unavailableError(operation, cause);
  }
  return toStorageError(operation, cause);
}

/**
 * A driver failure as the local `STORAGE` RelayError, naming the operation: what opening the
 * database fails with, whatever the cause (the relay cannot start). RelayErrors pass through.
 */
export function toStorageError(operation: string, cause: unknown): RelayError {
  if (cause instanceof RelayError) {
    return cause;
  }
  const sqlState = sqlStateOf(cause);
  return new RelayError("STORAGE", `${operation} failed: ${rootMessage(cause)}`, {
    cause,
    retryable: sqlState !== undefined && RETRYABLE_SQLSTATE.test(sqlState),
    context: { operation, ...(sqlState === undefined ? {} : { sqlState }) },
  });
}

/**
 * `work`, or DatabaseDeadlineError once `ms` pass without an answer: a frozen link never resets,
 * so without a deadline a request would wait on it for minutes.
 */
export function withDeadline<T>(
  operation: string,
  ms: number | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (ms === undefined) {
    return work();
  }
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DatabaseDeadlineError(operation, ms)), ms);
    work().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Told of each store call once it settled: `Port.method` (or `transaction`), how long it took in
 * milliseconds, and whether it failed. The relay's metrics time the database here.
 */
export type StoreCallListener = (operation: string, ms: number, failed: boolean) => void;

/** What a guarded store's methods run on: the store, its deadline, its transaction's calls. */
const GUARDED = Symbol("guarded store");

interface GuardState {
  readonly store: Record<string, (...args: unknown[]) => Promise<unknown>>;
  readonly deadlineMs: number | undefined;
  readonly calls: TransactionCalls | undefined;
  readonly onCall: StoreCallListener | undefined;
}

/** A call's time told to `listener`, when there is one; the call's outcome passes as it is. */
export async function timed<T>(
  listener: StoreCallListener | undefined,
  operation: string,
  work: () => Promise<T>,
): Promise<T> {
  if (listener === undefined) {
    return work();
  }
  const began = performance.now();
  let failed = true;
  try {
    const value = await work();
    failed = false;
    return value;
  } finally {
    listener(operation, performance.now() - began, failed);
  }
}

type Guarded = { readonly [GUARDED]: GuardState };

async function callGuarded(
  state: GuardState,
  name: string,
  operation: string,
  args: unknown[],
): Promise<unknown> {
  try {
    return await timed(state.onCall, operation, () =>
      withDeadline(
        operation,
        state.deadlineMs,
        () => state.store[name]?.apply(state.store, args) as Promise<unknown>,
      ),
    );
  } catch (cause) {
    throw toStoreError(operation, cause);
  }
}

/**
 * A prototype per port and set of methods, made once: a transaction's stores are made for each
 * transaction, and a closure per method each time was much of what the relay allocated under load
 * (and, kept by V8 in its old generation, kept their transaction's rows alive there too).
 */
const prototypes = new Map<string, object>();

function guardedPrototype(port: string, names: readonly string[]): object {
  const key = `${port}\n${names.join(",")}`;
  let prototype = prototypes.get(key);
  if (prototype === undefined) {
    const methods: Record<string, unknown> = {};
    for (const name of names) {
      const operation = `${port}.${name}`;
      methods[name] = function (this: Guarded, ...args: unknown[]): Promise<unknown> {
        const state = this[GUARDED];
        return state.calls === undefined
          ? callGuarded(state, name, operation, args)
          : state.calls.run(operation, () => callGuarded(state, name, operation, args));
      };
    }
    prototype = methods;
    prototypes.set(key, prototype);
  }
  return prototype;
}

export interface GuardOptions {
  /** No call waits longer: it fails with REMOTE_RELAY_UNAVAILABLE. */
  readonly deadlineMs?: number | undefined;
  /** Each call is one of a transaction's (see TransactionCalls). */
  readonly calls?: TransactionCalls | undefined;
  /** Told each call's time. */
  readonly onCall?: StoreCallListener | undefined;
}

/**
 * Wraps every method of a store so that a failing query rejects with a RelayError naming the
 * port and method, whatever driver threw it, with the `options` above. The methods are the
 * prototype's, so a wrapper that replaces one of them derives from the store (`overriding` of
 * @oar/core) rather than spreading it.
 */
export function guardStore<T extends object>(port: string, store: T, options: GuardOptions = {}): T {
  const members = store as Record<string, unknown>;
  const names: string[] = [];
  const values: [string, unknown][] = [];
  for (const name in members) {
    if (typeof members[name] === "function") {
      names.push(name);
    } else {
      values.push([name, members[name]]);
    }
  }
  const guarded = Object.create(guardedPrototype(port, names)) as Record<PropertyKey, unknown>;
  guarded[GUARDED] = {
    store: store as GuardState["store"],
    deadlineMs: options.deadlineMs,
    calls: options.calls,
    onCall: options.onCall,
  } satisfies GuardState;
  for (const [name, value] of values) {
    guarded[name] = value;
  }
  return guarded as T;
}
