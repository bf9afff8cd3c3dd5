import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { RelayError } from "@oar/core";

/** The file in the data directory that names the process using it. */
export const LOCK_FILE_NAME = "relay.pid";

const ATTEMPTS = 5;
const RETRY_DELAY_MS = 25;
// A takeover marker older than this was left by a process that died in the middle of a takeover.
const STALE_TAKEOVER_MS = 10_000;

// Paths this process holds: a lock naming our own pid is ours only if we took it. After a crash
// in a container, the next relay often gets the same pid as the dead one.
const heldByThisProcess = new Set<string>();
const takingInThisProcess = new Map<string, Promise<DataDirLock>>();

export interface DataDirLock {
  /** The lock file's absolute path. */
  readonly path: string;
  /** Removes the lock file if it still names this process; safe to call more than once. */
  release(): Promise<void>;
}

function hasCode(error: unknown, ...codes: string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && codes.includes(code);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return hasCode(error, "EPERM");
  }
}

/** The pid a lock file names, or null when it is gone or holds no pid. */
async function readHolder(path: string): Promise<number | null> {
  try {
    const pid = Number.parseInt(await readFile(path, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch (error) {
    if (hasCode(error, "ENOENT")) {
      return null;
    }
    throw error;
  }
}

/** Creates the lock file holding our pid, atomically and complete, or returns false if it exists. */
async function createLockFile(path: string): Promise<boolean> {
  const content = `${process.pid}\n`;
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  await writeFile(temporary, content);
  try {
    // link() fails on an existing name, and a reader never sees a half-written file.
    await link(temporary, path);
    return true;
  } catch (error) {
    if (hasCode(error, "EEXIST")) {
      return false;
    }
    if (!hasCode(error, "EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS")) {
      throw error;
    }
    // Filesystems without hard links: fall back to an exclusive create.
    try {
      await writeFile(path, content, { flag: "wx" });
      return true;
    } catch (fallbackError) {
      if (hasCode(fallbackError, "EEXIST")) {
        return false;
      }
      throw fallbackError;
    }
  } finally {
    await unlink(temporary).catch(() => {});
  }
}

/**
 * Removes a lock whose holder is gone. Two processes may find the same stale lock; the takeover
 * marker (mkdir is atomic) lets one of them remove it, so neither removes a lock just re-taken.
 */
async function removeStaleLock(path: string, stalePid: number | null): Promise<void> {
  const marker = `${path}.takeover`;
  try {
    await mkdir(marker);
  } catch (error) {
    if (!hasCode(error, "EEXIST")) {
      throw error;
    }
    const age = Date.now() - (await stat(marker).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > STALE_TAKEOVER_MS) {
      await rmdir(marker).catch(() => {});
    }
    await delay(RETRY_DELAY_MS);
    return;
  }
  try {
    if ((await readHolder(path)) === stalePid) {
      await unlink(path).catch((error: unknown) => {
        if (!hasCode(error, "ENOENT")) {
          throw error;
        }
      });
    }
  } finally {
    await rmdir(marker).catch(() => {});
  }
}

function lockedError(dataDir: string, pid: number): RelayError {
  return new RelayError(
    "DATA_DIR_LOCKED",
    `The data directory ${dataDir} is in use by process ${pid}. Stop that relay or set RELAY_DATA_DIR to another directory.`,
    { context: { dataDir, pid } },
  );
}

/**
 * Takes the data directory for this process: creates it if needed, then writes `relay.pid`.
 * A live holder (another process, or this one) gets `RelayError("DATA_DIR_LOCKED")`; a lock
 * whose process is gone is taken over.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const dir = resolve(dataDir);
  const path = join(dir, LOCK_FILE_NAME);
  // Two takers in one process would each read a lock naming this pid, written by the other but
  // not yet marked held, as one a dead process of the same pid left: one at a time.
  const before = takingInThisProcess.get(path) ?? Promise.resolve();
  const taking = before.catch(() => {}).then(() => takeLock(dir, path));
  takingInThisProcess.set(path, taking);
  try {
    return await taking;
  } finally {
    if (takingInThisProcess.get(path) === taking) {
      takingInThisProcess.delete(path);
    }
  }
}

async function takeLock(dir: string, path: string): Promise<DataDirLock> {
  await mkdir(dir, { recursive: true });

  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await createLockFile(path)) {
      heldByThisProcess.add(path);
      let released: Promise<void> | undefined;
      const release = () => {
        released ??= releaseLock(path);
        return released;
      };
      return { path, release };
    }
    const holder = await readHolder(path);
    if (holder !== null && (holder === process.pid ? heldByThisProcess.has(path) : isAlive(holder))) {
      throw lockedError(dir, holder);
    }
    await removeStaleLock(path, holder);
  }
  const holder = await readHolder(path);
  if (holder !== null) {
    throw lockedError(dir, holder);
  }
  throw new RelayError("STORAGE", `Could not take the lock file ${path}: it kept changing hands.`, {
    retryable: true,
    context: { dataDir: dir },
  });
}

/** The live process that holds the data directory now (another relay, or this one); null when none does. */
export async function dataDirHolder(dataDir: string): Promise<number | null> {
  const path = join(resolve(dataDir), LOCK_FILE_NAME);
  const holder = await readHolder(path);
  if (holder === null) {
    return null;
  }
  return (holder === process.pid ? heldByThisProcess.has(path) : isAlive(holder)) ? holder : null;
}

async function releaseLock(path: string): Promise<void> {
  heldByThisProcess.delete(path);
  if ((await readHolder(path)) === process.pid) {
    await unlink(path).catch(() => {});
  }
}
