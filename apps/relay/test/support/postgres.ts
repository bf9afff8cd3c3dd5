import { createScratchPostgres, type ScratchDatabase } from "@oar/storage/testing";
import { afterAll, beforeAll } from "vitest";

/** The Postgres server the relay tests may use (CI sets it); without it their Postgres legs are skipped. */
export const TEST_POSTGRES_URL = process.env.TEST_DATABASE_URL;

/** A scratch database for the test file: made before its tests, dropped after. */
export function useScratchPostgres(): () => ScratchDatabase {
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    if (TEST_POSTGRES_URL !== undefined) {
      scratch = await createScratchPostgres(TEST_POSTGRES_URL);
    }
  });
  afterAll(async () => {
    await scratch?.dispose();
  });
  return () => {
    if (!scratch) {
      throw new Error(
        "The scratch database exists only inside the file's tests (and needs TEST_DATABASE_URL).",
      );
    }
    return scratch;
  };
}

/** `url` with its host and port replaced: the same database, reached through a proxy. */
export function throughPort(url: string, port: number): string {
  const through = new URL(url);
  through.hostname = "127.0.0.1";
  through.port = String(port);
  return through.toString();
}
