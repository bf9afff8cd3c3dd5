import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeMigratedTemplate } from "../pglite";

/**
 * For a test run's global setup: makes the migrated in-memory template once for the whole run,
 * hands its file to the run's test processes under `pgliteTemplate` (each calls
 * `useMigratedTemplate` with it), and returns what removes it. Without it every test process
 * makes its own: some 6 s of CPU each.
 */
export async function provideMigratedTemplate(project: {
  provide(key: "pgliteTemplate", file: string): void;
}): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), "oar-pglite-run-"));
  const file = join(dir, "migrated.tar");
  await writeMigratedTemplate(file);
  project.provide("pgliteTemplate", file);
  return () => rm(dir, { recursive: true, force: true });
}
