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

// A link that dies as a fresh connection sends its first query once crashed the test run: postgres.js
// fetched the array types on connect in a promise nobody awaited (CI, stop 14).
describe.skipIf(!postgresDatabase.available)("a connection reset at its first query (DESIGN §4)", () => {
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

  it("fails the call as REMOTE_RELAY_UNAVAILABLE, leaves no unhandled rejection, and recovers", async () => {
    // The pool connects on its first query, so the first call here opens a connection.
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      proxy.resetAfterStartup(true);
      const failed = await storage.stores.sessions.getSession("s_none").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failed).toMatchObject({ name: "RelayError", code: "REMOTE_RELAY_UNAVAILABLE" });
      // An unawaited rejection is reported after the microtasks of its turn have run.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
      proxy.resetAfterStartup(false);
    }
    expect(await storage.stores.sessions.getSession("s_none")).toBeNull();
  });
});
