import { openStorage, type Storage } from "@oar/storage";

/**
 * The few calls of postgres.js (the driver @oar/storage opens on Postgres) the bench makes itself.
 * Declared here because the bench may import only the relay's packages, not the driver.
 */
interface PostgresClient {
  unsafe(query: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  listen(channel: string, onNotify: (payload: string) => void): Promise<{ unlisten(): Promise<void> }>;
  notify(channel: string, payload: string): Promise<unknown>;
}

/** The bench's own connections to the relay's database: its queries, LISTEN and NOTIFY. */
export interface BenchDatabase {
  /** Rows of a query, typed by the caller (numbers as `float8`, counts as `::int`). */
  query<T>(text: string, params?: readonly unknown[]): Promise<T[]>;
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the database through @oar/storage, as a second relay process would (its migrations are
 * already applied: nothing to do), and speaks through the pool's own client.
 */
export async function openBenchDatabase(url: string): Promise<BenchDatabase> {
  const storage: Storage = await openStorage({ driver: "postgres", url, maxConnections: 4 });
  const client = (storage.db as unknown as { $client?: PostgresClient }).$client;
  if (client === undefined) {
    await storage.close();
    throw new Error("@oar/storage's Postgres database shows no postgres.js client ($client)");
  }
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      return (await client.unsafe(text, params)) as T[];
    },
    async listen(channel, onNotify) {
      const listening = await client.listen(channel, onNotify);
      return () => listening.unlisten();
    },
    async notify(channel, payload) {
      await client.notify(channel, payload);
    },
    close: () => storage.close(),
  };
}

/** A Postgres array literal of relay ids (letters, digits and `_`), to bind as one `$n::text[]` parameter. */
export function idList(ids: readonly string[]): string {
  return `{${ids.join(",")}}`;
}
