import { RelayError } from "@oar/core";

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

/** Turns a driver failure into the local `STORAGE` RelayError; RelayErrors pass through unchanged. */
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
 * Wraps every method of a store so that a failing query rejects with `RelayError("STORAGE")`
 * naming the port and method, whatever driver threw it.
 */
export function guardStore<T extends object>(port: string, store: T): T {
  const guarded: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(store)) {
    if (typeof member !== "function") {
      guarded[name] = member;
      continue;
    }
    const method = member as (...args: unknown[]) => Promise<unknown>;
    guarded[name] = async (...args: unknown[]) => {
      try {
        return await method.apply(store, args);
      } catch (cause) {
        throw toStorageError(`${port}.${name}`, cause);
      }
    };
  }
  return guarded as T;
}
