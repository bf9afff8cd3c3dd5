import { describe, expect, it } from "vitest";
import { openStorage } from "../src";

describe("opening Postgres", () => {
  it("reports an unreachable server as a STORAGE error without the password", async () => {
    const error = await openStorage({
      driver: "postgres",
      url: "postgres://relay:s3cret@127.0.0.1:1/relay",
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "RelayError", code: "STORAGE", retryable: false });
    expect((error as Error).message).toContain("postgres://relay:***@127.0.0.1:1/relay");
    expect((error as Error).message).not.toContain("s3cret");
  });
});
