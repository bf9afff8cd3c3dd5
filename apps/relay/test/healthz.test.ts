import { describe, expect, it } from "vitest";
import { newApp } from "../src/http/app";

describe("HTTP surface basics (DESIGN §4)", () => {
  const app = newApp({ name: "desk", version: "0.1.0" });

  it("answers GET /healthz with ok, name and version", async () => {
    const response = await app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, name: "desk", version: "0.1.0" });
  });

  it("DESIGN §4: answers 503 with database unreachable while the database does not answer, 200 once it does", async () => {
    let answers = false;
    const watched = newApp({ name: "desk", version: "0.1.0", databaseAnswers: async () => answers });
    const down = await watched.request("/healthz");
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ ok: false, name: "desk", version: "0.1.0", database: "unreachable" });
    answers = true;
    expect((await watched.request("/healthz")).status).toBe(200);
  });

  it("answers an unknown route with a JSON error envelope", async () => {
    const response = await app.request("/v1/nothing-here", { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      ok: false,
      code: "REMOTE_RELAY_NOT_FOUND",
      error: "No route POST /v1/nothing-here on this relay.",
    });
  });
});
