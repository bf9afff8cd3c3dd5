import { isRelayError } from "@oar/core";
import { describe, expect, it } from "vitest";
import { DatabaseDeadlineError, guardStore, isOutage, toStoreError } from "../src/stores/guard";

const withCode = (code: string, message = "driver error") => Object.assign(new Error(message), { code });
// drizzle wraps the driver's error in its own.
const wrapped = (cause: Error) => new Error("Failed query: select 1", { cause });

describe("a database that does not answer is told apart from a query it refused (DESIGN §4)", () => {
  it.each([
    ["connection refused", withCode("ECONNREFUSED")],
    ["connection reset", withCode("ECONNRESET")],
    ["postgres.js closed the connection", wrapped(withCode("CONNECTION_CLOSED"))],
    ["connect timeout", withCode("CONNECT_TIMEOUT")],
    ["SQLSTATE 08006 connection failure", withCode("08006")],
    ["SQLSTATE 57P01 admin shutdown", wrapped(withCode("57P01"))],
    ["SQLSTATE 57014 statement timeout", withCode("57014")],
    ["SQLSTATE 25P03 idle in transaction timeout", withCode("25P03")],
    ["SQLSTATE 53300 too many connections", withCode("53300")],
    ["no answer before the deadline", new DatabaseDeadlineError("SessionStore.getSession", 6_000)],
  ])("%s is an outage: REMOTE_RELAY_UNAVAILABLE, retryable", (_name, cause) => {
    expect(isOutage(cause)).toBe(true);
    const error = toStoreError("SessionStore.getSession", cause);
    expect(error).toMatchObject({ code: "REMOTE_RELAY_UNAVAILABLE", retryable: true });
    expect(error.message).toContain("Nothing was changed");
  });

  it.each([
    ["invalid byte sequence (a NUL)", wrapped(withCode("22021"))],
    ["unique violation", withCode("23505")],
    ["a bug in the store", new TypeError("x is undefined")],
  ])("%s is not: a local STORAGE error (a bug)", (_name, cause) => {
    expect(isOutage(cause)).toBe(false);
    expect(toStoreError("SessionStore.appendMessage", cause)).toMatchObject({ code: "STORAGE" });
  });

  it("a store call that does not answer within its deadline fails with REMOTE_RELAY_UNAVAILABLE", async () => {
    const store = guardStore(
      "SessionStore",
      { getSession: () => new Promise<never>(() => {}) },
      {
        deadlineMs: 20,
      },
    );
    const error = await store.getSession().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isRelayError(error) && error.code).toBe("REMOTE_RELAY_UNAVAILABLE");
    expect((error as Error).message).toContain("no answer within 0.02 s");
  });

  it("guarded stores of one port share their methods; each runs on its own store and names it in errors", async () => {
    const make = (rows: string[]) => ({
      list: async () => [...rows],
      fail: async (): Promise<never> => {
        throw withCode("23505", `duplicate ${rows[0]}`);
      },
    });
    const one = guardStore("ListStore", make(["a"]));
    const two = guardStore("ListStore", make(["b", "c"]));
    expect(Object.keys(one)).toEqual([]);
    expect(one.list).toBe(two.list);
    expect(await one.list()).toEqual(["a"]);
    expect(await two.list()).toEqual(["b", "c"]);
    const error = await two.fail().catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "STORAGE",
      context: { operation: "ListStore.fail", sqlState: "23505" },
    });
    expect((error as Error).message).toBe("ListStore.fail failed: duplicate b");
  });
});
