import { describe, expect, it } from "vitest";
import { settle, track } from "../actions/harness";
import { type FedRelay, flowAll, pairedWithDeploy } from "../federation/harness";

const POLL_MS = 3_000;

/** desk's caller watches a session on build-box (card (b) allowed): the mirror's id and the subscription's there. */
async function watchingBuildBox() {
  const { fed, desk, box, target } = await pairedWithDeploy();
  const call = track(desk.call({ action: "subscribe", relay: "build-box", sessions: [target.id] }));
  await settle(30);
  const [card] = await desk.stores.cards.listCards({ status: "pending" });
  if (card !== undefined) {
    await desk.engine.owner.answerCard(card.id, { choice: "allow" });
  }
  const result = (await call.promise) as unknown as {
    subscription: { id: string };
    remoteSubscriptionId: string;
  };
  return { fed, desk, box, target, mirror: result.subscription.id, theirs: result.remoteSubscriptionId };
}

const endedThere = async (box: FedRelay, id: string) =>
  (await box.stores.subscriptions.getSubscription(id))?.endReason ?? null;

describe("Unsubscribe by the owner of a subscription on a paired relay (R-UI-06, R-SLIFE-02 (a), §28)", () => {
  it("R-UI-06: the chip names build-box; Unsubscribe ends the mirror at once and build-box's subscription at the next poll", async () => {
    const { fed, desk, box, mirror, theirs } = await watchingBuildBox();
    expect((await desk.engine.owner.getSession(desk.caller.id)).subscriptions).toMatchObject([
      { id: mirror, relay: "build-box", active: true },
    ]);

    expect(await desk.engine.owner.unsubscribe(mirror)).toEqual({ ended: [mirror] });
    expect(await desk.stores.subscriptions.getSubscription(mirror)).toMatchObject({
      endReason: "unsubscribed",
      remoteEndedAt: null,
    });
    expect((await desk.engine.owner.getSession(desk.caller.id)).subscriptions).toEqual([]);

    await fed.clock.advanceAsync(POLL_MS);
    await flowAll(box, desk);
    expect(await endedThere(box, theirs)).toBe("unsubscribed");
    expect(await desk.stores.subscriptions.getSubscription(mirror)).toMatchObject({
      remoteEndedAt: expect.any(Number),
    });
  });

  it("R-SLIFE-02 (a): with build-box offline the button still ends it here; build-box's ends once it answers again", async () => {
    const { fed, desk, box, mirror, theirs } = await watchingBuildBox();
    fed.down.add("build-box");
    expect(await desk.engine.owner.unsubscribe(mirror)).toEqual({ ended: [mirror] });
    await fed.clock.advanceAsync(POLL_MS);
    await flowAll(box, desk);
    expect(await endedThere(box, theirs)).toBeNull();

    fed.down.delete("build-box");
    await fed.clock.advanceAsync(POLL_MS);
    await flowAll(box, desk);
    expect(await endedThere(box, theirs)).toBe("unsubscribed");
  });
});
