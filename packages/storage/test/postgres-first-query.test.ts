import { describe, expect, it } from "vitest";
import { postgresDatabase } from "./databases";
import { useStorageThroughProxy } from "./through-proxy";

// A link that dies as a fresh connection sends its first query once crashed the test run: postgres.js
// fetched the array types on connect in a promise nobody awaited (CI, stop 14).
describe.skipIf(!postgresDatabase.available)("a connection reset at its first query (DESIGN §4)", () => {
  const through = useStorageThroughProxy();

  it("fails the call as REMOTE_RELAY_UNAVAILABLE, leaves no unhandled rejection, and recovers", async () => {
    // The pool connects on its first query, so the first call here opens a connection.
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      through.proxy().resetAfterStartup(true);
      const failed = await through
        .storage()
        .stores.sessions.getSession("s_none")
        .then(
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
      through.proxy().resetAfterStartup(false);
    }
    expect(await through.storage().stores.sessions.getSession("s_none")).toBeNull();
  });
});
