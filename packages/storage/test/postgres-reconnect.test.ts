import { describe, expect, it } from "vitest";
import type { Storage } from "../src";
import { postgresDatabase } from "./databases";
import { useStorageThroughProxy } from "./through-proxy";

const calls = (storage: Storage) => storage.stores.sessions.getSession("s_none");

describe.skipIf(!postgresDatabase.available)(
  "the database answers again after an outage: the pool is back within a second (DESIGN §4, issue 27 item 5)",
  () => {
    const through = useStorageThroughProxy();
    const proxy = () => through.proxy();
    const storage = () => through.storage();

    it("after 6 s of calls failing, the first call made once the database is back answers within 1 s, not after postgres.js's reconnect backoff (up to 20 s)", async () => {
      expect(await calls(storage())).toBeNull();
      await proxy().cut();
      // What a relay does while the database is away: its pollers and retries keep calling, several at once.
      const until = Date.now() + 6_000;
      while (Date.now() < until) {
        const failed = await Promise.allSettled([calls(storage()), calls(storage()), calls(storage())]);
        expect(failed.map((call) => call.status)).toEqual(["rejected", "rejected", "rejected"]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await proxy().restore();

      const restoredAt = Date.now();
      expect(await calls(storage())).toBeNull();
      const answeredAfter = Date.now() - restoredAt;
      console.info(`reconnect: the first call after the database came back answered in ${answeredAfter} ms`);
      expect(answeredAfter).toBeLessThan(1_000);
    }, 30_000);
  },
);
