import type { OwnerSessionDetail } from "@oar/engine";
import { LIMITS, NUL_CHARACTER_REASON } from "@oar/schema";
import { describe, expect, it } from "vitest";
import {
  bearer,
  createNetwork,
  externalCaller,
  invite,
  ownerSession,
  pair,
  parse,
} from "./federation/network";
import type { TestRelay } from "./harness";

// Issue 8 item 2 on the peer surface (POST /v1/peer/tool): a paired relay's origin gets the bounds
// of an agent's own fields, since this relay stores it and puts it in prompts (R-HOP-03); its call
// goes through parseCall like any other.

const NUL = "\u0000";

const NESTING = `is nested more than ${LIMITS.nestingMax} levels deep; the relay reads at most ${LIMITS.nestingMax} levels of objects and lists`;
const DEEP = `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;

const ORIGIN = {
  relay: "desk",
  session: "ses_caller",
  title: "Lead",
  model: "script-1",
  hops: 1,
  userUnlocked: true,
};

async function peerSetup() {
  const net = createNetwork();
  const box = await net.relay("build-box");
  return { box, token: await invite(box) };
}

async function invites(t: TestRelay): Promise<Array<{ relay: string | null }>> {
  return (await t.ownerJson<{ invites: Array<{ relay: string | null }> }>("GET", "/v1/owner/peers/invites"))
    .invites;
}

async function sessionCount(t: TestRelay): Promise<number> {
  return (await t.ownerJson<{ sessions: unknown[] }>("GET", "/v1/owner/sessions?scope=all")).sessions.length;
}

describe("a paired relay's origin is bounded like an agent's own fields (issue 8)", {
  timeout: 60_000,
}, () => {
  it("origin.relay of 10,000 characters and origin.title of 1 MB are 400 naming the field; the invite stays unbound and nothing runs", async () => {
    const { box, token } = await peerSetup();
    const sessionsBefore = await sessionCount(box);
    const call = { action: "create_session", relay: "this", text: "hello" };
    for (const [change, field] of [
      [{ relay: "r".repeat(10_000) }, "relay"],
      [{ title: "t".repeat(1_000_000) }, "title"],
      [{ model: "m".repeat(LIMITS.nameMaxChars + 1) }, "model"],
      [{ session: "s".repeat(LIMITS.idMaxChars + 1) }, "session"],
    ] as const) {
      const response = await bearer(box, "POST", "/v1/peer/tool", token, {
        call,
        origin: { ...ORIGIN, ...change },
      });
      expect(response.status, field).toBe(400);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body, field).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
      expect(body.error, field).toMatch(new RegExp(`^origin\\.${field}: `));
    }
    expect(await invites(box)).toEqual([expect.objectContaining({ relay: null })]);
    expect(await sessionCount(box)).toBe(sessionsBefore);
  });

  it("at the limits the call runs, and the header line carries the relay, title and model as sent (R-HOP-03)", async () => {
    const { box, token } = await peerSetup();
    const target = await ownerSession(box, "Deploy");
    const origin = {
      ...ORIGIN,
      relay: `d${"e".repeat(LIMITS.peerNameMaxChars - 1)}`,
      session: "s".repeat(LIMITS.idMaxChars),
      title: "t".repeat(LIMITS.titleMaxChars),
      model: "m".repeat(LIMITS.nameMaxChars),
    };
    const response = await bearer(box, "POST", "/v1/peer/tool", token, {
      call: { action: "send", relay: "this", session: target, text: "!reply ok", wait_seconds: 0 },
      origin,
    });
    expect(response.status).toBe(200);
    expect(await parse(response)).toMatchObject({ ok: true });
    const detail = await box.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${target}`);
    const header = detail.messages[0]?.text.split("\n")[0] ?? "";
    expect(header).toContain(origin.relay);
    expect(header).toContain(origin.title);
    expect(header).toContain(origin.model);
  });

  it("a NUL in an origin field is 400 naming it; the invite stays unbound", async () => {
    const { box, token } = await peerSetup();
    const response = await bearer(box, "POST", "/v1/peer/tool", token, {
      call: { action: "relay_info", relay: "this" },
      origin: { ...ORIGIN, title: `Lead${NUL}` },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: `origin.title: ${NUL_CHARACTER_REASON}`,
    });
    expect(await invites(box)).toEqual([expect.objectContaining({ relay: null })]);
  });
});

describe("the call a paired relay forwards goes through parseCall (issue 8)", { timeout: 60_000 }, () => {
  it("a NUL in the call is refused like on /v1/tool (HTTP 200, ok:false) and creates nothing", async () => {
    const { box, token } = await peerSetup();
    const sessionsBefore = await sessionCount(box);
    const response = await bearer(box, "POST", "/v1/peer/tool", token, {
      call: { action: "create_session", relay: "this", text: `x${NUL}y` },
      origin: ORIGIN,
    });
    expect(response.status).toBe(200);
    expect(await parse(response)).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: `text: ${NUL_CHARACTER_REASON}`,
    });
    expect(await sessionCount(box)).toBe(sessionsBefore);
  });

  it("a call nested 5,000 levels deep is refused by its depth, not a stack overflow", async () => {
    const { box, token } = await peerSetup();
    const response = await box.relay.app.request("/v1/peer/tool", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: `{"call":{"action":"list_sessions","relay":"this","deep":${DEEP}},"origin":${JSON.stringify(ORIGIN)}}`,
    });
    expect(response.status).toBe(200);
    expect(await parse(response)).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: `deep: ${NESTING}`,
    });
  });

  it("an agent's call 5,000 levels deep for a paired relay is refused here, before forwarding could overflow the stack", async () => {
    const net = createNetwork();
    const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
    await pair(desk, box);
    const caller = await externalCaller(desk, { mentions: "build-box" });
    const response = await desk.relay.app.request("/v1/tool", {
      method: "POST",
      headers: { Authorization: `Bearer ${caller.token}`, "Content-Type": "application/json" },
      body: `{"action":"list_sessions","relay":"build-box","deep":${DEEP}}`,
    });
    expect(response.status).toBe(200);
    expect(await parse(response)).toEqual({
      ok: false,
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: `deep: ${NESTING}`,
    });
    expect(net.toolCallsTo("build-box.test")).toEqual([]);
  });
});
