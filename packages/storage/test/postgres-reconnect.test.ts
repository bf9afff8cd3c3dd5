import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStorage, type Storage } from "../src";
import { startTcpProxy, type TcpProxy } from "../src/testing";
import { POSTGRES_URL, postgresDatabase } from "./databases";

/** The same database, reached through the proxy's port. */
function throughPort(url: string, port: number): string {
  const through = new URL(url);
  through.hostname = "127.0.0.1";
  through.port = String(port);
  return through.toString();
}

const calls = (storage: Storage) => storage.stores.sessions.getSession("s_none");

describe.skipIf(!postgresDatabase.available)(
  "the database answers again after an outage: the pool is back within a second (DESIGN §4, issue 27 item 5)",
  () => {
    let scratch: Awaited<ReturnType<typeof postgresDatabase.create>>;
    let proxy: TcpProxy;
    let storage: Storage;

    beforeAll(async () => {
      scratch = await postgresDatabase.create();
      const target = new URL(POSTGRES_URL ?? "");
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const url = scratch.config.driver === "postgres" ? scratch.config.url : "";
      storage = await openStorage({ driver: "postgres", url: throughPort(url, proxy.port) });
    }, 60_000);
    afterAll(async () => {
      await storage?.close();
      await proxy?.close();
      await scratch?.dispose();
    });

    it("after 6 s of calls failing, the first call made once the database is back answers within 1 s, not after postgres.js's reconnect backoff (up to 20 s)", async () => {
      expect(await calls(storage)).toBeNull();
      await proxy.cut();
      // What a relay does while the database is away: its pollers and retries keep calling, several at once.
      const until = Date.now() + 6_000;
      while (Date.now() < until) {
        const failed = await Promise.allSettled([calls(storage), calls(storage), calls(storage)]);
        expect(failed.map((call) => call.status)).toEqual(["rejected", "rejected", "rejected"]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await proxy.restore();

      const restoredAt = Date.now();
      expect(await calls(storage)).toBeNull();
      const answeredAfter = Date.now() - restoredAt;
      console.info(`reconnect: the first call after the database came back answered in ${answeredAfter} ms`);
      expect(answeredAfter).toBeLessThan(1_000);
    }, 30_000);
  },
);
