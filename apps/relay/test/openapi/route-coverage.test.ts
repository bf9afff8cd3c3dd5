import { describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/http/openapi/document";
import { createTestRelay } from "../harness";

/**
 * Routes the app serves that the document leaves out on purpose, each with its reason. Empty
 * today: the console's static files and MCP's refused GET and DELETE are documented too, so a
 * client reading the document sees every answer the relay can give.
 */
const NOT_DOCUMENTED: ReadonlyMap<string, string> = new Map<string, string>([]);

/** `GET /v1/owner/sessions/:id` → `GET /v1/owner/sessions/{id}`. */
function openApiForm(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`;
}

describe("the document lists exactly the routes the app serves", () => {
  it("every route of the app is documented, and every documented operation is a route", async () => {
    const t = await createTestRelay();
    const served = new Set(
      t.relay.app.routes
        // `app.use` middleware (auth, request id, body limit) is registered as ALL; it serves nothing itself.
        .filter((route) => route.method !== "ALL")
        .map((route) => openApiForm(route.method, route.path)),
    );
    const documented = new Set(OPERATIONS.map((operation) => openApiForm(operation.method, operation.path)));
    const undocumented = [...served].filter((route) => !documented.has(route) && !NOT_DOCUMENTED.has(route));
    const missing = [...documented].filter((route) => !served.has(route));
    expect(undocumented).toEqual([]);
    expect(missing).toEqual([]);
    // An exclusion must name a route that exists, or it hides nothing and should go.
    expect([...NOT_DOCUMENTED.keys()].filter((route) => !served.has(route))).toEqual([]);
  });

  it("the served document holds every operation of the table, once, under its tag and credential", async () => {
    const t = await createTestRelay();
    const document = (await (await t.relay.app.request("/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string; tags: string[]; security: unknown[] }>>;
    };
    const listed = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ method, path, ...operation })),
    );
    expect(listed).toHaveLength(OPERATIONS.length);
    expect(new Set(listed.map((operation) => operation.operationId)).size).toBe(OPERATIONS.length);
    for (const operation of OPERATIONS) {
      const served = document.paths[operation.path]?.[operation.method];
      expect(served?.tags).toEqual([operation.tag]);
      expect(served?.security).toEqual(operation.auth === "none" ? [] : [expect.any(Object)]);
    }
  });
});
