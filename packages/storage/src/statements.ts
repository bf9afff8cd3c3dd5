import type { PGlite, Transaction } from "@electric-sql/pglite";

/**
 * Called with the text of each statement a relay sends its database, BEGIN and COMMIT included:
 * how a benchmark or a test counts the round trips of a call (issue 29's budget per action).
 */
export type StatementListener = (text: string) => void;

type Queryable = Pick<PGlite, "query" | "exec"> | Pick<Transaction, "query" | "exec">;

function counting<T extends Queryable>(target: T, onStatement: StatementListener): T {
  const query = target.query.bind(target);
  const exec = target.exec.bind(target);
  return Object.assign(Object.create(target) as T, {
    query: ((text: string, ...rest: unknown[]) => {
      onStatement(text);
      return (query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as T["query"],
    exec: ((text: string, ...rest: unknown[]) => {
      onStatement(text);
      return (exec as (...args: unknown[]) => unknown)(text, ...rest);
    }) as T["exec"],
  });
}

/**
 * The PGlite client, its statements told to `onStatement`: a query, an exec, and a transaction's
 * BEGIN, its statements and its COMMIT (or ROLLBACK), which PGlite sends itself.
 */
export function countingPglite(client: PGlite, onStatement: StatementListener): PGlite {
  const transaction = client.transaction.bind(client);
  return Object.assign(counting(client, onStatement), {
    transaction: (async (work: (tx: Transaction) => Promise<unknown>) => {
      onStatement("BEGIN");
      try {
        const result = await transaction((tx) => work(counting(tx, onStatement)));
        onStatement("COMMIT");
        return result;
      } catch (error) {
        onStatement("ROLLBACK");
        throw error;
      }
    }) as PGlite["transaction"],
  });
}
