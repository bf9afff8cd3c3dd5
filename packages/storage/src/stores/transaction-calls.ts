import { RelayError } from "@oar/core";

/**
 * The store calls made on one transaction's stores. The transaction commits or rolls back only
 * once every call it started has settled: work that runs calls side by side (`Promise.all`) and
 * fails on one of them would otherwise end the transaction while a sibling still has statements
 * to send, and the driver would run those on the connection after it, outside any transaction.
 * A call made after the work has settled is refused, for the same reason.
 */
export class TransactionCalls {
  private readonly pending = new Set<Promise<unknown>>();
  private ended = false;

  run<T>(operation: string, call: () => Promise<T>): Promise<T> {
    if (this.ended) {
      return Promise.reject(
        new RelayError("STORAGE", `${operation} was called after its transaction had ended.`, {
          context: { operation },
        }),
      );
    }
    const promise = call();
    this.pending.add(promise);
    const forget = () => {
      this.pending.delete(promise);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** Refuses new calls, then waits for those in flight; their failures are their callers'. */
  async end(): Promise<void> {
    this.ended = true;
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
  }
}
