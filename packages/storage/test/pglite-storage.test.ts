import { mkdir, mkdtemp, readFile, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { newSession, newTurn } from "@oar/engine/testing";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCK_FILE_NAME, openStorage, type Storage } from "../src";
import { buildHolder, startHolder } from "./processes";

const lockedMessage = (dir: string, pid: number) =>
  `The data directory ${dir} is in use by process ${pid}. Stop that relay or set RELAY_DATA_DIR to another directory.`;

async function journalLength(): Promise<number> {
  const journal = JSON.parse(
    await readFile(new URL("../drizzle/meta/_journal.json", import.meta.url), "utf8"),
  );
  return (journal as { entries: unknown[] }).entries.length;
}

async function appliedMigrations(storage: Storage): Promise<number> {
  const result = await storage.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  const rows = (result as unknown as { rows: { n: number }[] }).rows;
  return Number(rows[0]?.n);
}

// Issue 8, item 9: PGlite's memory is sized for one relay, its durability is PGlite's own. fsync
// is off in PGlite's start parameters (-F): a commit's WAL is written to the files before it
// returns, so a killed relay loses nothing; synchronous_commit and full_page_writes stay on.
const RELAY_SETTINGS = {
  shared_buffers: "16MB",
  maintenance_work_mem: "16MB",
  fsync: "off",
  synchronous_commit: "on",
  full_page_writes: "on",
};

async function shownSettings(storage: Storage): Promise<Record<string, string>> {
  const shown: Record<string, string> = {};
  for (const name of Object.keys(RELAY_SETTINGS)) {
    const result = await storage.db.execute(sql.raw(`show ${name}`));
    shown[name] = String((result as unknown as { rows: Record<string, unknown>[] }).rows[0]?.[name]);
  }
  return shown;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

// One data directory for the whole file, its tests in order: creating a PGlite database costs
// seconds, reopening it a fraction of one.
describe("PGlite in a data directory", () => {
  let dataDir = "";
  let holderBundle = "";
  let storage: Storage | undefined;
  const open = async () => {
    storage = await openStorage({ driver: "pglite", dataDir });
    return storage;
  };
  const close = async () => {
    await storage?.close();
    storage = undefined;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "oar-pglite-"));
    [holderBundle] = await Promise.all([buildHolder(), open()]);
  }, 60_000);

  afterAll(async () => {
    await close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(holderBundle, { force: true });
    await rmdir(dirname(holderBundle)).catch(() => {});
  });

  it("keeps the database under pgdata/ and locks the directory with this process's pid", async () => {
    expect(storage?.driver).toBe("pglite");
    expect((await stat(join(dataDir, "pgdata"))).isDirectory()).toBe(true);
    expect((await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(process.pid));
  });

  it("runs with a 16 MB buffer pool and keeps PGlite's durability settings", async () => {
    expect(await shownSettings(storage as Storage)).toEqual(RELAY_SETTINGS);
  });

  it("makes a new database beside pgdata/ and moves it in whole, replacing what a killed first start left", async () => {
    const fresh = await mkdtemp(join(tmpdir(), "oar-pglite-first-"));
    try {
      await mkdir(join(fresh, "pgdata.initdb"));
      await writeFile(join(fresh, "pgdata.initdb", "PG_VERSION"), "half made");
      const opened = await openStorage({ driver: "pglite", dataDir: fresh });
      await opened.close();
      expect((await readFile(join(fresh, "pgdata", "PG_VERSION"), "utf8")).trim()).toBe("18");
      await expect(stat(join(fresh, "pgdata.initdb"))).rejects.toMatchObject({ code: "ENOENT" });
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 60_000);

  it("refuses a second open of the directory in this process while it is open", async () => {
    const error = await rejection(openStorage({ driver: "pglite", dataDir }));
    expect(error).toMatchObject({ code: "DATA_DIR_LOCKED", message: lockedMessage(dataDir, process.pid) });
  });

  it("refuses a second relay process while this one holds the directory", async () => {
    const holder = startHolder(holderBundle, dataDir);
    expect(await holder.next()).toEqual({
      error: { code: "DATA_DIR_LOCKED", message: lockedMessage(dataDir, process.pid) },
    });
    expect(await holder.stop()).toBe(1);
  }, 30_000);

  it("finds its data again after close and reopen, with each migration applied once", async () => {
    const first = storage as Storage;
    await first.stores.sessions.createSession(newSession("ses_kept", { title: "Survives a restart" }));
    expect(await appliedMigrations(first)).toBe(await journalLength());
    await close();
    await first.close();
    await expect(stat(join(dataDir, LOCK_FILE_NAME))).rejects.toMatchObject({ code: "ENOENT" });

    const reopened = await open();
    expect((await reopened.stores.sessions.getSession("ses_kept"))?.title).toBe("Survives a restart");
    expect(await appliedMigrations(reopened)).toBe(await journalLength());
  });

  it("reports a failing query as a STORAGE error naming the store method", async () => {
    const error = await rejection(
      (storage as Storage).stores.sessions.enqueueTurn(newTurn("trn_1", "ses_missing")),
    );
    expect(error).toMatchObject({
      name: "RelayError",
      code: "STORAGE",
      retryable: false,
      context: { operation: "SessionStore.enqueueTurn", sqlState: "23503" },
    });
  });

  it("is refused while another relay process holds the directory, and opens once that one closed", async () => {
    await close();
    const holder = startHolder(holderBundle, dataDir);
    expect(await holder.next()).toEqual({ opened: holder.pid });

    const error = await rejection(open());
    expect(error).toMatchObject({ code: "DATA_DIR_LOCKED", message: lockedMessage(dataDir, holder.pid) });

    expect(await holder.stop()).toBe(0);
    const reopened = await open();
    expect(await reopened.stores.settings.getSetting("heldBy")).toBe(holder.pid);
  }, 30_000);

  it("takes over the directory of a relay process that crashed", async () => {
    await close();
    const holder = startHolder(holderBundle, dataDir);
    expect(await holder.next()).toEqual({ opened: holder.pid });
    await holder.crash();
    expect((await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(holder.pid));

    const reopened = await open();
    expect((await readFile(join(dataDir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(process.pid));
    expect((await reopened.stores.sessions.getSession("ses_kept"))?.id).toBe("ses_kept");
  }, 30_000);
});

describe("PGlite in memory (tests)", () => {
  it("runs with the same settings as in a data directory", async () => {
    const storage = await openStorage({ driver: "pglite", dataDir: "memory://" });
    try {
      expect(await shownSettings(storage)).toEqual(RELAY_SETTINGS);
    } finally {
      await storage.close();
    }
  }, 60_000);
});
