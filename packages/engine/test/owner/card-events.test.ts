import { describe, expect, it } from "vitest";
import { CARD_POLL_MS } from "../../src/actions/approvals";
import { createHarness, type Harness, settle, track } from "../actions/harness";

const CREATE = { action: "create_session", relay: "this", text: "a", wait_seconds: 0 } as const;

/** The owner stream's card records, as `kind card_id [status]`. */
async function cardEvents(h: Harness): Promise<string[]> {
  const records = await h.engine.owner.listEvents({ after: 0, limit: 100 });
  return records
    .map((record) => record.event)
    .filter((event) => event.kind === "card_raised" || event.kind === "card_answered")
    .map((event) =>
      event.kind === "card_raised"
        ? `card_raised ${event.card_id} ${event.action} ${event.target_relay} ${event.title}`
        : `card_answered ${event.card_id} ${event.status}`,
    );
}

async function raise(h: Harness) {
  h.provider.hold();
  await h.engine.owner.postMessage(h.caller.id, "hold");
  await settle();
  const call = track(h.call(CREATE));
  await settle(20);
  const [card] = await h.stores.cards.listCards({ status: "pending" });
  if (card === undefined) {
    throw new Error("no card");
  }
  return { call, card };
}

describe("approval cards on the owner's event stream (the console's Inbox is live)", () => {
  it("a raised card is an event with its action and relay; Allow records card_answered allowed", async () => {
    const h = await createHarness({ approvalCards: true });
    const { call, card } = await raise(h);
    expect(await cardEvents(h)).toEqual([`card_raised ${card.id} create_session desk ${h.caller.title}`]);
    await h.engine.owner.answerCard(card.id, { choice: "allow" });
    await h.clock.advanceAsync(CARD_POLL_MS);
    expect(await call.promise).toMatchObject({ ok: true });
    expect(await cardEvents(h)).toEqual([
      `card_raised ${card.id} create_session desk ${h.caller.title}`,
      `card_answered ${card.id} allowed`,
    ]);
  });

  it("Deny records card_answered denied once; a second answer is refused and records nothing", async () => {
    const h = await createHarness({ approvalCards: true });
    const { call, card } = await raise(h);
    await h.engine.owner.answerCard(card.id, { choice: "deny" });
    await h.clock.advanceAsync(CARD_POLL_MS);
    expect(await call.promise).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    await expect(h.engine.owner.answerCard(card.id, { choice: "allow" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });
    expect(await cardEvents(h)).toEqual([
      `card_raised ${card.id} create_session desk ${h.caller.title}`,
      `card_answered ${card.id} denied`,
    ]);
  });
});
