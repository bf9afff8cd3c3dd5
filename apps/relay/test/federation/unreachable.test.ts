import type { OwnerPeer as OwnerPeerView } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { RELAY_VERSION } from "../../src/version";
import type { TestRelay } from "../harness";
import { call, createNetwork, externalCaller, ownerSession, pair, session } from "./network";

async function deskAndBox() {
  const net = createNetwork();
  const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
  await pair(desk, box);
  const deploy = await ownerSession(box, "Deploy");
  const caller = await externalCaller(desk, { mentions: "Deploy on build-box." });
  return { net, desk, box, deploy, caller };
}

async function listedBox(desk: TestRelay, token: string): Promise<Record<string, unknown> | undefined> {
  const listed = await call(desk, token, { action: "list_relays" });
  return (listed.relays as Record<string, unknown>[]).find((relay) => relay.name === "build-box");
}

describe("a paired relay that does not answer, or refuses the token (R-ERR-04, GAP-21) over HTTP", {
  timeout: 60_000,
}, () => {
  it("REMOTE_RELAY_UNREACHABLE names the relay and says nothing was done; list_relays shows it offline; once back, calls go through", async () => {
    const { net, desk, box, deploy, caller } = await deskAndBox();
    net.down.add("build-box.test");
    const send = () =>
      call(desk, caller.token, {
        action: "send",
        relay: "build-box",
        session: deploy,
        text: "!reply up",
        wait_seconds: 30,
      });
    const refused = await send();
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNREACHABLE" });
    expect(String(refused.error)).toContain('Relay "build-box" does not answer');
    expect(String(refused.error)).toContain("Nothing was done there.");
    expect(await listedBox(desk, caller.token)).toMatchObject({ online: false, version: RELAY_VERSION });
    expect(await desk.ownerJson("GET", "/v1/owner/peers")).toMatchObject({
      peers: [{ name: "build-box", online: false }],
    });
    expect(await session(box, deploy)).toMatchObject({ messages: [], turns: [] });

    net.down.delete("build-box.test");
    expect(await send()).toMatchObject({ ok: true, status: "done", reply: { text: "up" } });
    expect(await listedBox(desk, caller.token)).toMatchObject({ online: true, version: RELAY_VERSION });
  });

  it("an address nothing answers at is REMOTE_RELAY_UNREACHABLE; an address without a peer surface is REMOTE_RELAY_UNSUPPORTED", async () => {
    const { desk, deploy, caller } = await deskAndBox();
    const moved = await desk.ownerJson<OwnerPeerView>("PATCH", "/v1/owner/peers/build-box", {
      url: "https://nowhere.test",
    });
    expect(moved).toMatchObject({ online: false });
    const read = { action: "read_session", relay: "build-box", session: deploy };
    const unreachable = await call(desk, caller.token, read);
    expect(unreachable).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNREACHABLE" });
    expect(String(unreachable.error)).toContain('Relay "build-box"');

    // The right host, under a path where build-box has no routes (404).
    await desk.ownerJson("PATCH", "/v1/owner/peers/build-box", { url: "https://build-box.test/relay/" });
    const unsupported = await call(desk, caller.token, read);
    expect(unsupported).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNSUPPORTED" });
    expect(String(unsupported.error)).toContain("no peer surface");
  });

  it("a token build-box does not accept is REMOTE_RELAY_AUTH naming the relay and how to pair again, without the token; nothing runs there", async () => {
    const { desk, box, deploy, caller } = await deskAndBox();
    const wrong = "oar_invite_not-an-invite-of-build-box-0123456789";
    await desk.ownerJson("PATCH", "/v1/owner/peers/build-box", { token: wrong });
    for (const input of [
      { action: "send", relay: "build-box", session: deploy, text: "!reply no", wait_seconds: 0 },
      { action: "list_sessions", relay: "build-box" },
    ]) {
      const refused = await call(desk, caller.token, input);
      expect(refused, input.action).toMatchObject({ ok: false, code: "REMOTE_RELAY_AUTH" });
      expect(String(refused.error), input.action).toContain('Relay "build-box" refused this relay\'s token');
      expect(String(refused.error), input.action).toContain("PATCH /v1/owner/peers/build-box");
      expect(JSON.stringify(refused), input.action).not.toContain(wrong);
    }
    expect(await session(box, deploy)).toMatchObject({ messages: [], turns: [] });
  });
});
