import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { newOutboxEvent } from "@oar/engine/testing";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStores, MIGRATIONS_FOLDER } from "../src";

/** The migrations folder as it was before `tag`: its journal cut just ahead of it. */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "oar-migrations-"));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalPath = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  expect(index).toBeGreaterThan(0);
  await writeFile(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, index) }));
  return folder;
}

describe("0006_event_layer on a database of the version before", () => {
  let client: PGlite | undefined;
  let older: string | undefined;
  const db = () => drizzle({ client: client as PGlite });
  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await db().execute(query)) as unknown as { rows: T[] }).rows;

  beforeAll(async () => {
    older = await migrationsBefore("0006_event_layer");
    client = await PGlite.create();
    await migrate(db(), { migrationsFolder: older });
    await db().execute(sql`insert into sessions (id, title, provider, model, created_at, last_activity_at)
      values ('ses_1', 'Watcher', 'script', 'script-1', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`);
    await db().execute(sql`insert into messages (id, session_id, role, text, created_at)
      values ('msg_event', 'ses_1', 'event', 'An event line', '2026-01-01T00:00:00Z'), ('msg_user', 'ses_1', 'user', 'Hello', '2026-01-01T00:00:00Z')`);
    await migrate(db(), { migrationsFolder: MIGRATIONS_FOLDER });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    if (older !== undefined) {
      await rm(older, { recursive: true, force: true });
    }
  });

  it("turns the message role event into relay, and the new CHECK refuses event", async () => {
    expect(await rows(sql`select id, role from messages order by id`)).toEqual([
      { id: "msg_event", role: "relay" },
      { id: "msg_user", role: "user" },
    ]);
    await expect(
      db().execute(sql`update messages set role = 'event' where id = 'msg_user'`),
    ).rejects.toMatchObject({ cause: { code: "23514" } });
  });

  it("makes the outbox head and the routing cursor at 0, so the first event is seq 1", async () => {
    expect(await rows(sql`select id, seq::int as seq from outbox_head`)).toEqual([{ id: 1, seq: 0 }]);
    expect(await rows(sql`select id, seq::int as seq from routing_cursor`)).toEqual([{ id: 1, seq: 0 }]);
    const stores = createStores(db());
    expect((await stores.events.appendEvent(newOutboxEvent("evt_1")))?.seq).toBe(1);
    expect(await stores.deliveries.claimCursor()).toBe(0);
  });

  it("drops the tables the event layer no longer has", async () => {
    const tables = await rows<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_name in ('grouped_messages', 'held_digests')`,
    );
    expect(tables).toEqual([]);
  });
});
