import { randomBytes } from "node:crypto";
import postgres from "postgres";

/** An empty database of its own on a Postgres server, for one test file; `dispose` drops it. */
export interface ScratchDatabase {
  readonly url: string;
  dispose(): Promise<void>;
}

/**
 * Test files run in parallel, so each gets its own database (`oar_t_<random>`), created through
 * `adminUrl` (any database of the server the test user may create databases on).
 */
export async function createScratchPostgres(adminUrl: string): Promise<ScratchDatabase> {
  const name = `oar_t_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    await admin.end({ timeout: 5 });
    throw error;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async dispose() {
      try {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end({ timeout: 5 });
      }
    },
  };
}
