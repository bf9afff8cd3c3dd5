import type { PeerOrigin } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { refusal } from "../actions/harness";
import { createFederation, type FedRelay, relayOf } from "./harness";

const HEADER =
  '[Remote prompt from an agent on relay "desk" · session "Planner" · test-1 · acting for the user]';

async function chain() {
  const fed = await createFederation(["desk", "build-box", "ci"]);
  const desk = relayOf(fed, "desk");
  const box = relayOf(fed, "build-box");
  const ci = relayOf(fed, "ci");
  await desk.pair(box);
  await box.pair(desk);
  await box.pair(ci);
  await ci.pair(box);
  return { fed, desk, box, ci };
}

function sendTo(relay: FedRelay, session: string, text = "hold") {
  return { action: "send", relay: relay.name, session, text, wait_seconds: 0 };
}

describe("relay to relay (§6)", () => {
  it("R-HOP-03, R-UI-05: the prompt another relay's agent sends begins with the header line and carries its badge", async () => {
    const { desk, box } = await chain();
    const target = await box.ownerSession("Nightly deploy");
    await desk.write("ask build-box");
    await desk.ok(sendTo(box, target.id, "Did the deploy go through?"));
    const [prompt] = await box.stores.sessions.listMessages(target.id);
    expect(prompt?.text).toBe(`${HEADER}\nDid the deploy go through?`);
    expect(prompt?.provenance).toEqual({
      relay: "desk",
      session: desk.caller.id,
      title: "Planner",
      model: "test-1",
      hops: 1,
      userUnlocked: true,
    });
    const read = await box.ok({ action: "read_session", relay: "this", session: target.id });
    expect((read.messages as unknown[])[0]).toMatchObject({
      role: "user",
      from: `relay "desk" · session "Planner" (${desk.caller.id}) · test-1`,
    });
  });

  it("R-HOP-01/02: a prompt that crossed two relays goes no further unless the user there named the next relay; reading is never limited", async () => {
    const { desk, box, ci } = await chain();
    const sb = await box.ownerSession("Build");
    const sb2 = await box.ownerSession("Other build");
    const sc = await ci.ownerSession("Tests");
    box.provider.hold();
    ci.provider.hold();

    // desk → build-box: the turn there has crossed one relay.
    // Each agent calls from its running turn: the one the prompt started (its hops are the turn's).
    await desk.write("build-box");
    await desk.ok(sendTo(box, sb.id));
    await box.provider.nextTurn();
    // build-box → ci: two crossings, still allowed; build-box's owner named ci in that conversation.
    await box.write("use ci", sb.id);
    await box.ok(sendTo(ci, sc.id), sb.id);
    await ci.provider.nextTurn();
    const [arrived] = await ci.stores.sessions.listMessages(sc.id);
    expect(arrived?.provenance).toMatchObject({ relay: "build-box", hops: 2, userUnlocked: true });

    // ci → build-box would be a third crossing; build-box is open in that conversation only
    // because its agent wrote there (R-LOCK-01(b)), which does not count (R-HOP-01).
    expect(await ci.stores.unlocks.getRelayUnlock({ conversation: sc.id, relay: "build-box" })).toMatchObject(
      {
        how: "agent",
      },
    );
    expect(refusal(await ci.call(sendTo(box, sb2.id), sc.id))).toMatchObject({
      code: "REMOTE_RELAY_HOP_LIMIT",
      error: expect.stringContaining("already crossed 2 relays"),
    });
    await ci.ok({ action: "read_session", relay: "build-box", session: sb2.id }, sc.id);
    await ci.ok({ action: "wait", relay: "build-box", session: sb.id, wait_seconds: 0 }, sc.id);
    expect(await box.stores.sessions.listMessages(sb2.id)).toEqual([]);

    // The user of that conversation names build-box: the prompt may go on.
    await ci.write("build-box is fine", sc.id);
    await ci.ok(sendTo(box, sb2.id), sc.id);
    const [third] = await box.stores.sessions.listMessages(sb2.id);
    expect(third?.provenance).toMatchObject({ relay: "ci", hops: 3, userUnlocked: true });
  });

  it("R-HOP-01: a prompt passed on between two sessions of one relay keeps its hop count", async () => {
    const { desk, box } = await chain();
    const first = await box.ownerSession("First");
    const second = await box.ownerSession("Second");
    box.provider.hold();
    await desk.write("build-box");
    await desk.ok(sendTo(box, first.id));
    await box.provider.nextTurn();
    await box.ok({ ...sendTo(box, second.id), relay: "this" }, first.id);
    const [local] = await box.stores.sessions.listMessages(second.id);
    expect(local?.provenance).toMatchObject({ relay: "build-box", session: first.id, hops: 1 });
  });

  it("R-HOP-01: the receiving relay applies the rule again from the origin it is given", async () => {
    const { box } = await chain();
    const target = await box.ownerSession("Build");
    const origin: PeerOrigin = {
      relay: "far-away",
      session: "ses_far",
      title: "Far",
      model: "m",
      hops: 3,
      userUnlocked: false,
    };
    const refused = await box.engine.executeFromPeer(origin, {
      action: "send",
      relay: "this",
      session: target.id,
      text: "hi",
      wait_seconds: 0,
    });
    expect(refusal(refused).code).toBe("REMOTE_RELAY_HOP_LIMIT");
    expect(
      await box.engine.executeFromPeer(origin, { action: "read_session", relay: "this", session: target.id }),
    ).toMatchObject({ ok: true });
    expect(
      await box.engine.executeFromPeer(
        { ...origin, userUnlocked: true },
        { action: "send", relay: "this", session: target.id, text: "hi", wait_seconds: 0 },
      ),
    ).toMatchObject({ ok: true });
  });
});
