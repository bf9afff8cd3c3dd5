import { describe, expect, it } from "vitest";
import { createPeerClient } from "../src/index";
import { BASE, failure, fakePeer, json, refused, TOKEN } from "./fake-peer";

const PAGE = {
  events: [
    {
      kind: "turn_end",
      id: "evt_1",
      at: "2026-10-20T10:00:00.000Z",
      session: "77aa",
      title: "Nightly deploy",
      status: "done",
      text: "Deployed.",
    },
  ],
  cursor: "12",
  truncated: false,
};

describe("§28 peer client: a subscription's events (GET /v1/peer/subscriptions/:id/events)", () => {
  it("GETs the page after the cursor with the bearer, the answer validated as a page", async () => {
    const peer = fakePeer(json(PAGE), json({ ...PAGE, events: [], cursor: null }));
    const c = createPeerClient({ url: BASE, token: TOKEN, fetch: peer.fetch });
    expect(await c.subscriptionEvents("sub_1", { after: "7", limit: 50 })).toEqual(PAGE);
    expect(await c.subscriptionEvents("sub/2", {})).toEqual({ events: [], cursor: null, truncated: false });
    expect(peer.sent.map((r) => [r.method, r.url])).toEqual([
      ["GET", "https://build-box.example.com/v1/peer/subscriptions/sub_1/events?after=7&limit=50"],
      ["GET", "https://build-box.example.com/v1/peer/subscriptions/sub%2F2/events"],
    ]);
    expect(peer.sent[0]?.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("a body that is not a page → VALIDATION; a refusal keeps its wire code", async () => {
    const bad = fakePeer(json({ events: "no" }));
    const c = createPeerClient({ url: BASE, token: TOKEN, fetch: bad.fetch });
    expect((await failure(c.subscriptionEvents("sub_1", {}))).code).toBe("VALIDATION");
    const gone = fakePeer(
      json({ ok: false, code: "REMOTE_RELAY_NOT_FOUND", error: "Subscription sub_1 ended." }, 410),
    );
    const ended = await failure(
      createPeerClient({ url: BASE, token: TOKEN, fetch: gone.fetch }).subscriptionEvents("sub_1", {}),
    );
    expect(ended.code).toBe("REMOTE_RELAY_NOT_FOUND");
    expect(ended.message).toContain("ended");
  });

  it("retries once after a network failure, then gives up with NETWORK", async () => {
    const once = fakePeer(refused(), json(PAGE));
    expect(
      await createPeerClient({ url: BASE, token: TOKEN, fetch: once.fetch }).subscriptionEvents("sub_1", {}),
    ).toEqual(PAGE);
    const twice = fakePeer(refused(), refused());
    const error = await failure(
      createPeerClient({ url: BASE, token: TOKEN, fetch: twice.fetch }).subscriptionEvents("sub_1", {}),
    );
    expect(error.code).toBe("NETWORK");
    expect(twice.sent).toHaveLength(2);
  });

  it("refuses an empty id or a bad limit before anything goes out", async () => {
    const peer = fakePeer();
    const c = createPeerClient({ url: BASE, token: TOKEN, fetch: peer.fetch });
    expect((await failure(c.subscriptionEvents("", {}))).code).toBe("VALIDATION");
    expect((await failure(c.subscriptionEvents("sub_1", { limit: 0 }))).code).toBe("VALIDATION");
    expect(peer.sent).toHaveLength(0);
  });
});
