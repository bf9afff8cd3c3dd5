import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface ScratchDatabase {
  /** The admin URL with the scratch database's name in its path. */
  readonly url: string;
  readonly name: string;
  /** Drops it, with any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * A new database made with `psql` through `adminUrl`, named after the URL's database
 * (`oar_bench_<random>` from `postgres`, `<db>_<random>` otherwise). Throws with psql's first
 * line of complaint when there is no psql or no server.
 */
export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const base = new URL(adminUrl).pathname.slice(1) || "postgres";
  const name = `${base === "postgres" ? "oar_bench" : base}_${randomBytes(4).toString("hex")}`;
  try {
    await run("psql", [adminUrl, "-v", "ON_ERROR_STOP=1", "-qc", `create database ${name}`]);
  } catch (cause) {
    const reason = (cause as { stderr?: string }).stderr?.trim().split("\n")[0] || String(cause);
    throw new Error(reason);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      await run("psql", [adminUrl, "-qc", `drop database if exists ${name} with (force)`]);
    },
  };
}
