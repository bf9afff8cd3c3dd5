import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isRelayError } from "@oar/core";
import { describe, expect, it } from "vitest";
import { acquireDataDirLock, LOCK_FILE_NAME } from "../src";
import { deadPid, startOtherProcess, stopProcess, temporaryDirectory } from "./processes";

const lockedMessage = (dir: string, pid: number) =>
  `The data directory ${dir} is in use by process ${pid}. Stop that relay or set RELAY_DATA_DIR to another directory.`;

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRelayError(error)) {
    throw new Error(`expected a RelayError, got ${String(error)}`);
  }
  return error;
}

describe("the data directory lock", () => {
  it("creates the directory and a lock file naming this process, removed on release", async () => {
    const dir = join(await temporaryDirectory(), "nested", "data");
    const lock = await acquireDataDirLock(dir);
    expect(lock.path).toBe(join(dir, LOCK_FILE_NAME));
    expect((await readFile(lock.path, "utf8")).trim()).toBe(String(process.pid));
    await lock.release();
    await lock.release();
    await expect(stat(lock.path)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a second lock while this process holds the directory, and allows it after release", async () => {
    const dir = await temporaryDirectory();
    const lock = await acquireDataDirLock(dir);
    const error = await refusal(acquireDataDirLock(dir));
    expect(error.code).toBe("DATA_DIR_LOCKED");
    expect(error.message).toBe(lockedMessage(dir, process.pid));
    await lock.release();
    await (await acquireDataDirLock(dir)).release();
  });

  it("gives the directory to only one of two simultaneous takers", async () => {
    const dir = await temporaryDirectory();
    const results = await Promise.allSettled([acquireDataDirLock(dir), acquireDataDirLock(dir)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected?.status === "rejected" && rejected.reason).toMatchObject({ code: "DATA_DIR_LOCKED" });
    for (const result of results) {
      if (result.status === "fulfilled") {
        await result.value.release();
      }
    }
  });

  it("refuses a directory that another running process holds, naming it", async () => {
    const dir = await temporaryDirectory();
    const other = startOtherProcess();
    await writeFile(join(dir, LOCK_FILE_NAME), `${other}\n`);
    const error = await refusal(acquireDataDirLock(dir));
    expect(error.code).toBe("DATA_DIR_LOCKED");
    expect(error.message).toBe(lockedMessage(dir, other));
    expect(error.context).toEqual({ dataDir: dir, pid: other });
    expect((await readFile(join(dir, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(other));

    await stopProcess(other);
    const lock = await acquireDataDirLock(dir);
    expect((await readFile(lock.path, "utf8")).trim()).toBe(String(process.pid));
    await lock.release();
  });

  it("takes over a lock whose process is gone", async () => {
    const dir = await temporaryDirectory();
    await writeFile(join(dir, LOCK_FILE_NAME), `${await deadPid()}\n`);
    const lock = await acquireDataDirLock(dir);
    expect((await readFile(lock.path, "utf8")).trim()).toBe(String(process.pid));
    await lock.release();
  });

  it("takes over a lock file that names no process", async () => {
    const dir = await temporaryDirectory();
    await writeFile(join(dir, LOCK_FILE_NAME), "");
    await (await acquireDataDirLock(dir)).release();
    await writeFile(join(dir, LOCK_FILE_NAME), "not a pid");
    await (await acquireDataDirLock(dir)).release();
  });

  it("takes over a lock naming this process's pid that this process never took (pid reused after a crash)", async () => {
    const dir = await temporaryDirectory();
    await writeFile(join(dir, LOCK_FILE_NAME), `${process.pid}\n`);
    const lock = await acquireDataDirLock(dir);
    await lock.release();
  });

  it("leaves alone, on release, a lock that is no longer this process's", async () => {
    const dir = await temporaryDirectory();
    const lock = await acquireDataDirLock(dir);
    const other = startOtherProcess();
    await writeFile(lock.path, `${other}\n`);
    await lock.release();
    expect((await readFile(lock.path, "utf8")).trim()).toBe(String(other));
  });
});
