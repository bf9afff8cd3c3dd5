import type { OwnerPeer as OwnerPeerView } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { RELAY_VERSION } from "../../src/version";
import { createTestRelay } from "../harness";
import { call, externalCaller, invite, ownerSession, serveOnLoopback, session } from "./network";

describe("two relays over real sockets, with the global fetch (smoke)", { timeout: 60_000 }, () => {
  it("R-HOP-06: desk pairs build-box at http://127.0.0.1:<port> (loopback) and a send with wait_seconds comes back done", async () => {
    // build-box writes keep-alive spaces every 25 ms while the call waits (DESIGN §4); desk's client drops them.
    const [desk, box] = await Promise.all([
      createTestRelay({ name: "desk" }),
      createTestRelay({ name: "build-box", overrides: { keepAliveMs: 25 } }),
    ]);
    const boxUrl = await serveOnLoopback(box.relay.app.fetch);
    await serveOnLoopback(desk.relay.app.fetch);

    const paired = await desk.ownerJson<OwnerPeerView>("POST", "/v1/owner/peers", {
      name: "build-box",
      url: boxUrl,
      token: await invite(box),
    });
    expect(paired).toEqual({
      name: "build-box",
      url: boxUrl,
      level: "full",
      online: true,
      version: RELAY_VERSION,
      problem: null,
    });

    const deploy = await ownerSession(box, "Deploy");
    const caller = await externalCaller(desk, { title: "Lead", mentions: "Deploy on build-box." });
    const sent = await call(desk, caller.token, {
      action: "send",
      relay: "build-box",
      session: deploy,
      text: "!sleep 300\n!reply deployed over TCP",
      wait_seconds: 20,
    });
    expect(sent).toMatchObject({
      ok: true,
      relay: "build-box",
      status: "done",
      reply: { text: "deployed over TCP" },
    });
    const detail = await session(box, deploy);
    expect(detail.messages[0]?.text.split("\n")[0]).toBe(
      '[Remote prompt from an agent on relay "desk" · session "Lead" · external · acting for the user]',
    );
  });
});
