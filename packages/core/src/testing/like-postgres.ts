import { isRelayError, RelayError } from "../errors";

// What the relay's databases refuse that a JavaScript Map would keep. A memory store is a stand-in
// for Postgres in tests: one that takes a value the database refuses hides a bug that only shows
// on the real stores (an instant of Number.MAX_SAFE_INTEGER went through every memory test, and
// failed every call on PGlite with "Invalid time value").

// Instants are epoch milliseconds in the ports, and `timestamptz` columns in the databases; the
// ports name them this way (`at`, `now`, `createdAt`, `endedSince`, `dueBefore`, a schedule's
// `slot` and `anchor`).
const INSTANT_KEY = /^(at|now|slot|anchor)$|At$|Since$|Before$/;
// A Date holds ±8.64e15 ms; past that, `new Date(ms)` is invalid and the SQL stores cannot bind it.
const LAST_INSTANT_MS = 8.64e15;
const DEEPEST = 6;

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

function refusal(operation: string, why: string): RelayError {
  return new RelayError("STORAGE", `${operation} failed: ${why}`, { context: { operation } });
}

function check(operation: string, value: unknown, key: string | undefined, depth: number): void {
  if (typeof value === "string") {
    // Postgres text and jsonb hold no NUL character ("invalid byte sequence for encoding UTF8: 0x00").
    if (value.includes("\u0000")) {
      throw refusal(operation, `invalid byte sequence for encoding "UTF8": 0x00 (in ${key ?? "a value"})`);
    }
    return;
  }
  if (typeof value === "number") {
    if (key !== undefined && INSTANT_KEY.test(key) && !(Math.abs(value) <= LAST_INSTANT_MS)) {
      throw refusal(operation, `Invalid time value (${key}: ${value})`);
    }
    return;
  }
  if (depth >= DEEPEST || typeof value !== "object" || value === null) {
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      check(operation, item, key, depth + 1);
    }
    return;
  }
  for (const [name, inner] of Object.entries(value)) {
    check(operation, inner, name, depth + 1);
  }
}

/**
 * The store with every method checking its arguments as the databases would: an instant out of a
 * Date's range (or NaN), or a NUL character in any text, rejects with `STORAGE` naming the port
 * and method, as the SQL stores do, and changes nothing. What the store itself refuses (a key
 * already stored) rejects with `STORAGE` too.
 */
export function refusingLikePostgres<S extends object>(port: string, store: S): S {
  const checked: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(store)) {
    if (typeof member !== "function") {
      checked[name] = member;
      continue;
    }
    const operation = `${port}.${name}`;
    checked[name] = (...args: unknown[]) => {
      try {
        check(operation, args, undefined, 0);
      } catch (error) {
        return Promise.reject(error);
      }
      const result: unknown = member.apply(store, args);
      // As the SQL stores' guard does: a store's own failure is STORAGE, naming the call.
      return result instanceof Promise
        ? result.catch((cause: unknown) => {
            throw isRelayError(cause) ? cause : refusal(operation, messageOf(cause));
          })
        : result;
    };
  }
  return checked as S;
}

/** What a database says of a row whose key is already stored (a memory store throws it). */
export function refuseStoredKey(stored: boolean, constraint: string): void {
  if (stored) {
    throw new Error(`duplicate key value violates unique constraint "${constraint}"`);
  }
}
