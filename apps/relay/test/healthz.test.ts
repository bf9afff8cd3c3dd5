import { describe, expect, it } from "vitest";
import { newApp } from "../src/http/app";

describe("HTTP surface basics (DESIGN §4)", () => {
  const app = newApp({ name: "desk", version: "0.1.0" });

  it("answers GET /healthz with ok, name and version", async () => {
    const response = await app.request("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, name: "desk", version: "0.1.0" });
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
