import { newSubscription } from "@oar/scheduler/testing";
import { describe, expect, it } from "vitest";
import { refusal, settle, track } from "../actions/harness";
import { type FedRelay, flowAll, pairedWithDeploy } from "./harness";

const POLL_MS = 3_000;
const WINDOW_MS = 30_000;

const flow = flowAll;

/** subscribe on build-box from desk's caller: card (b) on desk, allowed. */
async function subscribeThere(desk: FedRelay, input: Record<string, unknown>) {
  const call = track(desk.call({ action: "subscribe", relay: "build-box", ...input }));
  await settle(30);
  const [card] = await desk.stores.cards.listCards({ status: "pending" });
  if (card !== undefined) {
    await desk.engine.owner.answerCard(card.id, { choice: "allow" });
  }
  const result = await call.promise;
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true, relay: "build-box" });
  return {
    ...(result as unknown as { subscription: { id: string }; remoteSubscriptionId: string; summary: string }),
    card,
  };
}

async function relayLines(relay: FedRelay, sessionId = relay.caller.id) {
  const messages = await relay.stores.sessions.listMessages(sessionId);
  return messages.filter((m) => m.role === "relay").map((m) => m.text);
}

describe("§28 subscriptions on a paired relay", () => {
  it("R-PAIR-01/03: build-box keeps the subscription, desk a mirror; desk fetches the events and its watcher reads them with build-box's name", async () => {
    const { fed, desk, box, target } = await pairedWithDeploy();
    const result = await subscribeThere(desk, { sessions: [target.id], events: ["turn_end"] });
    const mirror = await desk.stores.subscriptions.getSubscription(result.subscription.id);
    expect(mirror).toMatchObject({
      watcher: desk.caller.id,
      relay: "build-box",
      remoteId: result.remoteSubscriptionId,
      sessions: [target.id],
    });
    expect(result.summary).toContain(result.subscription.id);
    expect(await box.stores.subscriptions.getSubscription(result.remoteSubscriptionId)).toMatchObject({
      watcher: desk.caller.id,
      watcherRelay: "desk",
    });

    // The mirror watches no session of desk, even with sessions ["all"].
    await subscribeThere(desk, { sessions: ["all"], events: ["error"] });
    const local = await desk.ownerSession("Local work");
    expect(await desk.engine.owner.getSession(local.id)).toMatchObject({ watched: false });
    expect(await box.engine.owner.getSession(target.id)).toMatchObject({ watched: true });

    await box.engine.owner.postMessage(target.id, "deploy");
    await flow(box, desk);
    // build-box sends no message for a paired relay's conversation.
    expect(await relayLines(box, desk.caller.id)).toEqual([]);
    await fed.clock.advanceAsync(POLL_MS);
    await flow(box, desk);
    await fed.clock.advanceAsync(WINDOW_MS);
    await flow(box, desk);
    const lines = (await relayLines(desk)).join("\n").split("\n");
    expect(lines).toContain(
      `[relay event] build-box · session "Nightly deploy" (${target.id}): turn_end (done) "echo: deploy"`,
    );

    // Fetched again: nothing delivered twice.
    await fed.clock.advanceAsync(POLL_MS);
    await fed.clock.advanceAsync(WINDOW_MS);
    await flow(box, desk);
    expect(await relayLines(desk)).toHaveLength(1);
  });

  it("R-PAIR-04/07: build-box down → one link_lost; back → the missed events, then link_restored counting them and what the digest holds", async () => {
    const { fed, desk, box, target } = await pairedWithDeploy();
    const result = await subscribeThere(desk, {
      sessions: [target.id],
      events: ["turn_end"],
      digest_minutes: 5,
    });
    // R-FEW-24: card (b) on desk names the digest applied there.
    expect(JSON.stringify(result.card)).toContain("digest every 5 min");
    fed.down.add("build-box");
    for (let i = 0; i < 3; i++) {
      await fed.clock.advanceAsync(POLL_MS);
      await flow(desk);
    }
    const mirrorId = result.subscription.id;
    const kinds = async () =>
      (await desk.stores.events.listEvents({ after: 0, limit: 100 }))
        .filter((record) => record.subscriptionId === mirrorId)
        .map((record) => record.kind);
    expect(await kinds()).toEqual(["link_lost"]);
    await box.engine.owner.postMessage(target.id, "one");
    await flow(box);
    await box.engine.owner.postMessage(target.id, "two");
    await flow(box);
    fed.down.delete("build-box");
    await fed.clock.advanceAsync(POLL_MS);
    await flow(box, desk);
    expect(await kinds()).toEqual(["link_lost", "turn_end", "turn_end", "link_restored"]);
    const restored = (await desk.stores.events.listEvents({ after: 0, limit: 100 })).find(
      (record) => record.kind === "link_restored",
    );
    expect(restored?.event).toMatchObject({
      replayed: 2,
      held: 2,
      relay: "build-box",
      subscription_id: mirrorId,
    });
    await fed.clock.advanceAsync(5 * 60_000);
    await flow(box, desk);
    const replayedEvents = (await desk.stores.events.listEvents({ after: 0, limit: 100 })).filter(
      (record) => record.kind === "turn_end" && record.subscriptionId === mirrorId,
    );
    expect(replayedEvents.map((record) => record.event.replayed)).toEqual([true, true]);
    const text = (await relayLines(desk)).join("\n");
    expect(text).toContain(`link_lost (subscription ${mirrorId})`);
    expect(text).toContain(`link_restored (subscription ${mirrorId}): 2 replayed, 2 held`);
    // R-PAIR-04: the two kept while the link was down come in one single line marked replayed.
    const replayedLines = text.split("\n").filter((line) => line.includes("replayed 2 events"));
    expect(replayedLines).toHaveLength(1);
    expect(replayedLines[0]).toBe(
      `[relay event] build-box · replayed 2 events (subscription ${mirrorId}): session "${target.title}" (${target.id}): turn_end (done) "echo: one" | session "${target.title}" (${target.id}): turn_end (done) "echo: two"`,
    );
  });

  it("R-UNSUB-01, R-LSUB: unsubscribe naming build-box ends both sides; list_subscriptions there shows its list under the mirror's id", async () => {
    const { desk, box, target } = await pairedWithDeploy();
    const result = await subscribeThere(desk, { sessions: [target.id] });
    const listed = await desk.ok({ action: "list_subscriptions", relay: "build-box" });
    expect(listed.subscriptions).toMatchObject([
      { id: result.subscription.id, remoteSubscriptionId: result.remoteSubscriptionId, active: true },
    ]);
    const ended = await desk.ok({
      action: "unsubscribe",
      relay: "build-box",
      subscription_id: result.subscription.id,
    });
    expect(ended.ended).toEqual([result.subscription.id]);
    expect(await desk.stores.subscriptions.getSubscription(result.subscription.id)).toMatchObject({
      endReason: "unsubscribed",
    });
    expect(await box.stores.subscriptions.getSubscription(result.remoteSubscriptionId)).toMatchObject({
      endReason: "unsubscribed",
    });
  });

  it("R-SUB-09, R-PAIR-06: once is applied on desk; the mirror ending there ends build-box's subscription at the next poll", async () => {
    const { fed, desk, box, target } = await pairedWithDeploy();
    const result = await subscribeThere(desk, { sessions: [target.id], events: ["turn_end"], once: true });
    expect(result.subscription).toMatchObject({ once: true });
    expect(await box.stores.subscriptions.getSubscription(result.remoteSubscriptionId)).toMatchObject({
      once: false,
    });
    await box.engine.owner.postMessage(target.id, "first");
    await flow(box);
    await fed.clock.advanceAsync(POLL_MS);
    await flow(box, desk);
    expect(await desk.stores.subscriptions.getSubscription(result.subscription.id)).toMatchObject({
      endReason: "once",
      remoteEndedAt: null,
    });
    await fed.clock.advanceAsync(POLL_MS);
    await flow(box, desk);
    expect(await box.stores.subscriptions.getSubscription(result.remoteSubscriptionId)).toMatchObject({
      endReason: "unsubscribed",
    });
    expect(await desk.stores.subscriptions.getSubscription(result.subscription.id)).toMatchObject({
      remoteEndedAt: expect.any(Number),
    });
    await fed.clock.advanceAsync(WINDOW_MS);
    await flow(box, desk);
    expect(await relayLines(desk)).toHaveLength(1);
  });

  it("R-SLIFE-02(d): removing the pairing ends desk's mirrors as unpaired", async () => {
    const { desk, target, box } = await pairedWithDeploy();
    const result = await subscribeThere(desk, { sessions: [target.id] });
    await desk.engine.owner.removePeer("build-box");
    expect(await desk.stores.subscriptions.getSubscription(result.subscription.id)).toMatchObject({
      endReason: "unpaired",
    });
    expect(await box.stores.subscriptions.listMirrors()).toEqual([]);
  });

  it("GAP-17: the watched session archived on build-box ends its subscription there; the replay then says so and desk's mirror ends", async () => {
    const { fed, desk, box, target } = await pairedWithDeploy();
    const result = await subscribeThere(desk, { sessions: [target.id] });
    await box.engine.owner.archiveSession(target.id);
    await flow(box);
    await expect(
      box.engine.peerSubscriptionEvents("desk", result.remoteSubscriptionId, { limit: 10 }),
    ).rejects.toMatchObject({
      code: "REMOTE_RELAY_NOT_FOUND",
      message: expect.stringContaining("ended (archived)"),
    });
    await fed.clock.advanceAsync(POLL_MS);
    await flow(box, desk);
    expect(await desk.stores.subscriptions.getSubscription(result.subscription.id)).toMatchObject({
      endReason: "archived",
    });
  });

  it("the replay is the creating relay's only", async () => {
    const { desk, box, target } = await pairedWithDeploy();
    const result = await subscribeThere(desk, { sessions: [target.id] });
    await expect(
      box.engine.peerSubscriptionEvents("other", result.remoteSubscriptionId, { limit: 10 }),
    ).rejects.toMatchObject({
      code: "REMOTE_RELAY_NOT_FOUND",
    });
    expect(
      await box.engine.peerSubscriptionEvents("desk", result.remoteSubscriptionId, { limit: 10 }),
    ).toEqual({
      events: [],
      cursor: null,
      truncated: false,
    });
  });

  it("R-XFER-01/02, §28: transfer_subscriptions naming build-box moves what another desk conversation holds there, after card (e) on desk; the mirror and its held events follow", async () => {
    const { fed, desk, box, target } = await pairedWithDeploy();
    const result = await subscribeThere(desk, {
      sessions: [target.id],
      events: ["turn_end"],
      digest_minutes: 5,
    });
    const mirrorId = result.subscription.id;
    const heir = await desk.ownerSession("Heir");
    await desk.write("take over the watch on build-box", heir.id);
    await desk.inTurn(heir.id);
    const transfer = (from: string) =>
      desk.call({ action: "transfer_subscriptions", relay: "build-box", from }, heir.id);
    expect(refusal(await transfer(heir.id)).code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(refusal(await transfer("ses_nobody")).code).toBe("REMOTE_RELAY_NOT_FOUND");

    // An event held by the old watcher's digest moves with it.
    await box.engine.owner.postMessage(target.id, "before the move");
    await flow(box);
    await fed.clock.advanceAsync(POLL_MS);
    await flow(box, desk);

    const call = track(transfer(desk.caller.id));
    await settle(30);
    const [card] = await desk.stores.cards.listCards({ status: "pending" });
    expect(card).toMatchObject({
      kind: "transfer_subscriptions",
      text: `The agent of this conversation wants to take over all the subscriptions of conversation ${desk.caller.id} on relay "build-box".`,
    });
    await desk.engine.owner.answerCard(card?.id ?? "", { choice: "allow" });
    expect(await call.promise).toMatchObject({
      ok: true,
      relay: "build-box",
      summary: `transfer_subscriptions → build-box: 1 subscription from ${desk.caller.id}`,
      transferred: [mirrorId],
    });
    expect(await desk.stores.subscriptions.getSubscription(mirrorId)).toMatchObject({ watcher: heir.id });
    expect(await box.stores.subscriptions.getSubscription(result.remoteSubscriptionId)).toMatchObject({
      watcher: heir.id,
      watcherRelay: "desk",
    });

    await box.engine.owner.postMessage(target.id, "after the move");
    await flow(box);
    await fed.clock.advanceAsync(POLL_MS);
    await flow(box, desk);
    await fed.clock.advanceAsync(5 * 60_000);
    await flow(box, desk);
    const heard = (await relayLines(desk, heir.id)).join("\n");
    expect(heard).toContain('turn_end (done) "echo: before the move"');
    expect(heard).toContain('turn_end (done) "echo: after the move"');
    expect(await relayLines(desk)).toEqual([]);
    // Listed there as the heir's, under the mirror's id.
    const listed = (await desk.ok(
      { action: "list_subscriptions", relay: "build-box" },
      heir.id,
    )) as unknown as {
      subscriptions: { id: string; remoteSubscriptionId?: string }[];
    };
    expect(listed.subscriptions).toMatchObject([
      { id: mirrorId, remoteSubscriptionId: result.remoteSubscriptionId },
    ]);
  });

  it("§28: another relay's agent moves only its own relay's conversations' subscriptions; this relay's own are out of its reach", async () => {
    const { box, target } = await pairedWithDeploy();
    const local = await box.ownerSession("Box watcher");
    await box.engine.owner.postMessage(local.id, "hold");
    const theirs = await box.stores.subscriptions.createSubscription(
      newSubscription("sub_local_watch", { watcher: local.id, sessions: [target.id] }),
    );
    const origin = {
      relay: "desk",
      session: "ses_heir",
      title: "Heir",
      model: "test-1",
      hops: 1,
      userUnlocked: true,
    };
    const moved = await box.engine.executeFromPeer(origin, {
      action: "transfer_subscriptions",
      relay: "this",
      from: local.id,
    });
    expect(moved).toMatchObject({ ok: true, transferred: [] });
    expect(await box.stores.subscriptions.getSubscription(theirs.id)).toMatchObject({ watcher: local.id });
  });
});
