import type { OwnerSessionDetail } from "@oar/engine";
import {
  AuthErrorBodySchema,
  OwnerProvidersSchema,
  OwnerSessionDetailSchema,
  OwnerUnsubscribeResultSchema,
} from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createTestRelay, type TestRelay } from "./harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";

const postgres = useScratchPostgres();

// The owner routes the console's chip, activity and "start a conversation" read, on both databases.
const databases = [
  { database: "PGlite", open: () => createTestRelay({ overrides: { approvalCards: false } }) },
  ...(TEST_POSTGRES_URL === undefined
    ? []
    : [
        {
          database: "Postgres",
          open: () => createTestRelay({ databaseUrl: postgres().url, overrides: { approvalCards: false } }),
        },
      ]),
];

/** POST /v1/tool as the session holding `token`, parsed (keep-alive spaces dropped). */
async function call(t: TestRelay, token: string, body: unknown): Promise<Record<string, unknown>> {
  return JSON.parse((await (await t.tool(token, body)).text()).trim()) as Record<string, unknown>;
}

async function detail(t: TestRelay, id: string) {
  return OwnerSessionDetailSchema.parse(
    await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`),
  );
}

describe.each(databases)(
  "owner API for the console's chip and activity, on $database",
  { timeout: 30_000 },
  ({ open }) => {
    it("R-UI-06, R-UI-02: GET /sessions/:id lists the watcher's subscriptions and its agent's calls; Unsubscribe ends one and `watching` drops", async () => {
      const t = await open();
      const create = (title: string) =>
        t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title });
      const lead = await create("Lead");
      const server = await create("Review: server/");
      const web = await create("Review: web/");
      const token = await t.agentToken(lead.id);

      const subscribed = await call(t, token, {
        action: "subscribe",
        sessions: [server.id, web.id],
        events: ["turn_end"],
        digest_minutes: 15,
      });
      expect(subscribed).toMatchObject({ ok: true });
      const id = (subscribed.subscription as { id: string }).id;
      const missing = await call(t, token, { action: "read_session", relay: "this", session: "ses_missing" });
      expect(missing).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });

      const watching = await detail(t, lead.id);
      expect(watching.watching).toBe(2);
      expect(watching.subscriptions).toEqual([
        {
          id,
          relay: null,
          scope: "list",
          sessions: [
            { id: server.id, title: "Review: server/" },
            { id: web.id, title: "Review: web/" },
          ],
          exclude: [],
          events: ["turn_end"],
          once: false,
          match: null,
          stalledMinutes: 15,
          heartbeatMinutes: null,
          digestMinutes: 15,
          active: true,
          heldCount: 0,
          nextDeliveryAt: null,
        },
      ]);
      expect(watching.toolCalls).toEqual([
        {
          id: expect.stringMatching(/^call_/),
          action: "subscribe",
          relay: "desk",
          session: null,
          ok: true,
          code: null,
          summary: subscribed.summary,
          at: expect.any(Number),
        },
        {
          id: expect.stringMatching(/^call_/),
          action: "read_session",
          relay: "desk",
          session: "ses_missing",
          ok: false,
          code: "REMOTE_RELAY_NOT_FOUND",
          summary: missing.error,
          at: expect.any(Number),
        },
      ]);
      expect(watching.toolCalls[0]?.at).toBeLessThanOrEqual(watching.toolCalls[1]?.at ?? 0);

      const ended = await t.ownerJson("POST", `/v1/owner/subscriptions/${id}/unsubscribe`);
      expect(OwnerUnsubscribeResultSchema.parse(ended)).toEqual({ ended: [id] });
      const after = await detail(t, lead.id);
      expect(after).toMatchObject({ watching: 0, subscriptions: [] });
      expect((await detail(t, server.id)).watched).toBe(false);
      const listed = await call(t, token, { action: "list_subscriptions" });
      expect(listed.subscriptions).toMatchObject([{ id, active: false, endReason: "unsubscribed" }]);

      const again = await t.ownerJson("POST", `/v1/owner/subscriptions/${id}/unsubscribe`);
      expect(again).toEqual({
        ended: [],
        note: `Subscription ${id} had already ended (unsubscribed); nothing changed.`,
      });
    });

    it("POST /subscriptions/:id/unsubscribe of an unknown id is 404 REMOTE_RELAY_NOT_FOUND", async () => {
      const t = await open();
      const response = await t.owner("POST", "/v1/owner/subscriptions/sub_nope/unsubscribe");
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        ok: false,
        code: "REMOTE_RELAY_NOT_FOUND",
        error: "No subscription sub_nope on this relay.",
      });
    });

    it("GET /providers lists what relay_info lists; deleting a session deletes its call log", async () => {
      const t = await open();
      const session = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", { title: "Asker" });
      const token = await t.agentToken(session.id);
      const info = await call(t, token, { action: "relay_info", relay: "this" });
      const listed = OwnerProvidersSchema.parse(await t.ownerJson("GET", "/v1/owner/providers"));
      expect(listed).toEqual({ providers: info.providers });
      expect(listed.providers.find((provider) => provider.id === "script")).toMatchObject({
        defaultModel: "script-1",
      });
      expect(listed.providers.map((provider) => provider.id)).not.toContain("external");

      // The line is written beside the call; the owner's view waits for it.
      const detail = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${session.id}`);
      expect(detail.toolCalls).toMatchObject([{ action: "relay_info" }]);
      const { toolCalls } = t.relay.services.storage.stores;
      expect(await toolCalls.listToolCalls(session.id, { limit: 10 })).toMatchObject([
        { action: "relay_info" },
      ]);
      await t.ownerJson("DELETE", `/v1/owner/sessions/${session.id}`);
      expect(await toolCalls.listToolCalls(session.id, { limit: 10 })).toEqual([]);
    });
  },
);

describe("the new owner routes need the owner token (DESIGN §4, §7)", { timeout: 30_000 }, () => {
  it("no token or an agent's token is 401 REMOTE_RELAY_AUTH", async () => {
    const t = await createTestRelay();
    const session = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {});
    const agent = await t.agentToken(session.id);
    const routes = [
      ["GET", "/v1/owner/providers"],
      ["POST", "/v1/owner/subscriptions/sub_nope/unsubscribe"],
    ] as const;
    for (const [method, path] of routes) {
      const bearers: Record<string, string>[] = [
        {},
        { Authorization: `Bearer ${agent}` },
        { Authorization: "Bearer wrong" },
      ];
      for (const headers of bearers) {
        const response = await t.relay.app.request(path, { method, headers });
        expect(response.status, `${method} ${path}`).toBe(401);
        expect(AuthErrorBodySchema.parse(await response.json()).code).toBe("REMOTE_RELAY_AUTH");
      }
    }
  });
});
