import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { countApplied } from "./migrations-applied";
import { MIGRATIONS_FOLDER } from "./migrations-folder";
import { acquireDataDirLock, type DataDirLock } from "./pid-lock";
import { countingPglite } from "./statements";
import { closeOnce, type PgliteStorageConfig, type Storage } from "./storage";
import { createStores } from "./stores";
import { toStorageError } from "./stores/guard";

const IN_MEMORY = "memory://";

/**
 * Postgres' defaults size a server for a hundred clients; the embedded one serves one relay, and
 * PGlite's WebAssembly memory is never given back once touched. Its 128 MB of shared buffers made
 * some 150 MB of the relay's resident set; with 16 MB the relay creates, runs and lists a thousand
 * sessions as fast (pages it does not hold are read back through the OS cache). The cap on
 * maintenance memory keeps one index build in a future migration from raising the footprint for
 * good. Durability is PGlite's own and not changed here: fsync, synchronous_commit and
 * full_page_writes stay as PGlite sets them (issue 8, item 9).
 */
const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: "16MB",
  maintenance_work_mem: "16MB",
};

/**
 * V8 compiles PGlite's WebAssembly (9 MB of Postgres) with its baseline compiler, then recompiles
 * each function that gets hot with its optimizing one and keeps both: 50–90 MB more of the
 * relay's resident set for good, and the recompiling takes CPU from the first queries. The relay's
 * calls run as fast on the baseline code alone (PGlite's time goes to its JavaScript side), so V8
 * is asked for baseline code only. The flag is read when a module is compiled, so it is set before
 * the first PGlite starts; it applies to all WebAssembly this process compiles from then on.
 */
let baselineWasmOnly = false;

function compileWasmWithBaselineOnly(): void {
  if (!baselineWasmOnly) {
    baselineWasmOnly = true;
    setFlagsFromString("--liftoff-only");
  }
}

// PGlite's own start parameters (single-user mode and the rest) come first: passing any replaces them.
const START_PARAMS = [
  ...PGlite.defaultStartParams,
  ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ["-c", `${name}=${value}`]),
];

/**
 * Makes an empty database cluster in `directory` (which must not exist yet) in a child process.
 * Run in this process, initdb leaves some 600 MB of garbage (its own WebAssembly instances and
 * tarballs) that an idle relay keeps until V8 next collects (a first start idled at 890 MB); a
 * child gives all of it back when it exits.
 */
async function initdbInChild(directory: string): Promise<void> {
  // Whichever entry the resolver picks (the ESM one, or the CommonJS one under a require
  // resolver), an import() loads it; a CommonJS module's exports come as its default.
  const entry = pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href;
  const script = `const pglite = await import(${JSON.stringify(entry)});
    const { PGlite } = pglite.PGlite ? pglite : pglite.default;
    await (await PGlite.create(${JSON.stringify(directory)})).close();`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) {
    throw new Error(`initdb of ${directory} exited with ${code}: ${stderr.trim()}`);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: { code?: unknown }) => {
      if (error.code === "ENOENT") {
        return false;
      }
      throw error;
    },
  );
}

/**
 * A new data directory's cluster is made beside it and moved in once complete, so a relay killed
 * during the first start leaves no half-made database behind to be opened next time.
 */
async function ensureCluster(pgdata: string): Promise<void> {
  if (await exists(join(pgdata, "PG_VERSION"))) {
    return;
  }
  const staging = `${pgdata}.initdb`;
  await rm(staging, { recursive: true, force: true });
  await initdbInChild(staging);
  await rename(staging, pgdata);
}

// An in-memory database (tests) starts from a copy of one already migrated: restoring it takes a
// fraction of what creating and migrating a fresh one does. A process makes the copy once, or
// reads the one a test run made for all its processes (`useMigratedTemplate`).
let migratedTemplate: Promise<Blob> | undefined;

async function makeMigratedTemplate(): Promise<Blob> {
  const scratch = await mkdtemp(join(tmpdir(), "oar-pglite-template-"));
  try {
    const pgdata = join(scratch, "pgdata");
    await ensureCluster(pgdata);
    compileWasmWithBaselineOnly();
    const client = await PGlite.create(pgdata, { startParams: START_PARAMS });
    try {
      await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
      return await client.dumpDataDir("none");
    } finally {
      await client.close();
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function keepTemplate(template: Promise<Blob>): Promise<Blob> {
  migratedTemplate = template;
  // A template that could not be made or read is made again by the next database that needs it.
  template.catch(() => {
    if (migratedTemplate === template) {
      migratedTemplate = undefined;
    }
  });
  return template;
}

function inMemoryTemplate(): Promise<Blob> {
  return migratedTemplate ?? keepTemplate(makeMigratedTemplate());
}

/** Writes a migrated in-memory template to `file`, for other processes to start from. */
export async function writeMigratedTemplate(file: string): Promise<void> {
  const template = await makeMigratedTemplate();
  await writeFile(file, new Uint8Array(await template.arrayBuffer()));
}

/**
 * This process's in-memory databases start from the template `file` holds (writeMigratedTemplate),
 * instead of one this process would make: a test run of many processes migrates once, not once
 * per process.
 */
export function useMigratedTemplate(file: string): void {
  keepTemplate(readFile(file).then((bytes) => new Blob([bytes])));
}

async function openClient(dataDir: string, inMemory: boolean): Promise<PGlite> {
  compileWasmWithBaselineOnly();
  if (inMemory) {
    return PGlite.create({ loadDataDir: await inMemoryTemplate(), startParams: START_PARAMS });
  }
  const pgdata = join(resolve(dataDir), "pgdata");
  await ensureCluster(pgdata);
  return PGlite.create(pgdata, { startParams: START_PARAMS });
}

/** Opens (creating if needed) the embedded PGlite database and brings its schema up to date. */
export async function openPgliteStorage(config: Omit<PgliteStorageConfig, "driver">): Promise<Storage> {
  const inMemory = config.dataDir.startsWith(IN_MEMORY);
  const lock: DataDirLock | null = inMemory ? null : await acquireDataDirLock(config.dataDir);
  let client: PGlite | undefined;
  try {
    client = await openClient(config.dataDir, inMemory);
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    const db = drizzle({
      client: config.onStatement === undefined ? client : countingPglite(client, config.onStatement),
    });
    const opened = client;
    return {
      driver: "pglite",
      db,
      // PGlite runs no autovacuum: the pruner's compaction vacuums what it deleted.
      stores: createStores(db, {
        vacuums: true,
        ...(config.onStoreCall === undefined ? {} : { onStoreCall: config.onStoreCall }),
      }),
      maxConnections: 1,
      close: closeOnce(async () => {
        try {
          await opened.close();
        } finally {
          await lock?.release();
        }
      }),
    };
  } catch (cause) {
    await client?.close().catch(() => {});
    await lock?.release();
    throw toStorageError(`Opening the database in ${config.dataDir}`, cause);
  }
}

/**
 * How many migrations the PGlite database in `dataDir` has applied, changing nothing; null when
 * it has no database yet. The caller makes sure no relay holds the directory (PGlite is one
 * process's).
 */
export async function pgliteMigrationsApplied(dataDir: string): Promise<number | null> {
  const pgdata = join(resolve(dataDir), "pgdata");
  if (!(await stat(join(pgdata, "PG_VERSION")).catch(() => null))) {
    return null;
  }
  compileWasmWithBaselineOnly();
  const client = await PGlite.create(pgdata, { startParams: START_PARAMS });
  try {
    return await countApplied((text) => client.query<{ n: number }>(text).then((result) => result.rows));
  } finally {
    await client.close();
  }
}
