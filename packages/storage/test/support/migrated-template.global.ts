// The run's one migrated PGlite template, made before the test processes start. The relay's
// project uses this file too. A global setup runs where the workspace's packages resolve to their
// builds, which a fresh clone has not made yet: the template is made in a process of its own that
// reads the sources (tsx and the source condition, as the relay's process tests start relays).
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

const storageDir = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];

export async function setup(project: TestProject): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "oar-pglite-run-"));
  dirs.push(dir);
  const file = join(dir, "migrated.tar");
  await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--conditions=@oar/source", "test/support/write-migrated-template.ts", file],
    { cwd: storageDir },
  );
  project.provide("pgliteTemplate", file);
}

export async function teardown(): Promise<void> {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
