import { describe, expect, it } from "vitest";
import { createPeerClient } from "../src/index";
import { BASE, failure, fakePeer, json, refused, TOKEN } from "./fake-peer";

const STATUS = {
  question_id: "ask_1",
  status: "answered",
  answer: null,
  choice: "Wait",
  dismissed: false,
  via: "build-box",
  answeredAt: "2026-10-20T10:00:00.000Z",
  session: { id: "ses_1", title: "Nightly deploy" },
};

describe("R-QCHK-05 peer client: a question's status (GET /v1/peer/questions/:id)", () => {
  it("GETs it with the bearer, the id escaped, the answer validated", async () => {
    const peer = fakePeer(json(STATUS));
    const c = createPeerClient({ url: BASE, token: TOKEN, fetch: peer.fetch });
    expect(await c.question("ask/1")).toEqual(STATUS);
    expect(peer.sent.map((r) => [r.method, r.url])).toEqual([
      ["GET", "https://build-box.example.com/v1/peer/questions/ask%2F1"],
    ]);
    expect(peer.sent[0]?.headers.get("authorization")).toBe(`Bearer ${TOKEN}`);
  });

  it("a body that is not a status → VALIDATION; 410 keeps REMOTE_RELAY_NOT_FOUND; an empty id is refused unsent", async () => {
    const bad = fakePeer(json({ ...STATUS, status: "maybe" }));
    expect(
      (await failure(createPeerClient({ url: BASE, token: TOKEN, fetch: bad.fetch }).question("ask_1"))).code,
    ).toBe("VALIDATION");
    const gone = fakePeer(
      json({ ok: false, code: "REMOTE_RELAY_NOT_FOUND", error: "No question ask_1." }, 410),
    );
    const unknown = await failure(
      createPeerClient({ url: BASE, token: TOKEN, fetch: gone.fetch }).question("ask_1"),
    );
    expect(unknown.code).toBe("REMOTE_RELAY_NOT_FOUND");
    const none = fakePeer();
    expect(
      (await failure(createPeerClient({ url: BASE, token: TOKEN, fetch: none.fetch }).question(" "))).code,
    ).toBe("VALIDATION");
    expect(none.sent).toEqual([]);
  });

  it("retries once after a network failure", async () => {
    const once = fakePeer(refused(), json(STATUS));
    expect(await createPeerClient({ url: BASE, token: TOKEN, fetch: once.fetch }).question("ask_1")).toEqual(
      STATUS,
    );
    expect(once.sent).toHaveLength(2);
  });
});
