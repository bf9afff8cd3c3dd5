import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { newApp } from "../../src/http/app";
import { createTestRelay } from "../harness";

describe("GET /openapi.json (DESIGN §10)", () => {
  it("serves an OpenAPI 3.1 document that the OpenAPI 3.1 schema accepts, with no token", async () => {
    const t = await createTestRelay();
    const response = await t.relay.app.request("/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/json");
    const document = (await response.json()) as Record<string, unknown>;
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    if (!result.valid) {
      console.error(JSON.stringify(result.errors, null, 2));
    }
    expect(result.valid).toBe(true);
  });

  it("is built once and revalidates by ETag: the same bytes, then 304", async () => {
    const app = newApp({ name: "desk", version: "9.9.9" });
    const first = await app.request("/openapi.json");
    const etag = first.headers.get("ETag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(first.headers.get("Cache-Control")).toBe("no-cache");
    const again = await app.request("/openapi.json");
    expect(await again.text()).toBe(await first.text());
    const cached = await app.request("/openapi.json", { headers: { "If-None-Match": etag ?? "" } });
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
  });

  it("names the relay's version, and one schema per action for relay_tool's call and result", async () => {
    const app = newApp({ name: "desk", version: "9.9.9" });
    const document = (await (await app.request("/openapi.json")).json()) as {
      info: { version: string };
      components: { schemas: Record<string, { oneOf?: unknown[]; anyOf?: unknown[] }> };
    };
    expect(document.info.version).toBe("9.9.9");
    const { RelayToolCall, RelayToolResult } = document.components.schemas;
    expect(RelayToolCall?.oneOf).toHaveLength(23);
    // The 23 successes and the error envelope.
    expect(RelayToolResult?.anyOf).toHaveLength(24);
  });
});
