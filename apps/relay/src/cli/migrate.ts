import { migrationStatus, openStorage } from "@oar/storage";
import { type RelayConfig, storageTarget } from "../config";
import { storeLabel } from "./store-label";

/**
 * `oar-relay migrate`: brings the database's schema up to date and stops, for deploys that migrate
 * before they start the new version. Several processes may run it at once (one migrates, the
 * others wait and find nothing to do). Returns what to print.
 */
export async function migrateDatabase(config: RelayConfig): Promise<string> {
  const target = storageTarget(config);
  const before = (await migrationStatus(target)).applied ?? 0;
  const storage = await openStorage(target);
  await storage.close();
  const after = await migrationStatus(target);
  const applied = after.applied ?? 0;
  const latest = after.known.at(-1) ?? "none";
  const now = applied - before;
  return `${storeLabel(config)} is migrated: ${now === 0 ? "nothing to apply" : `${now} migration${now === 1 ? "" : "s"} applied now`}, ${applied} of ${after.known.length} in all (latest ${latest}).`;
}
