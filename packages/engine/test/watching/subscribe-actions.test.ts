import { LIMITS } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { CARD_POLL_MS } from "../../src/actions/approvals";
import { refusal, settle, track } from "../actions/harness";
import { createWatchingHarness } from "./watching-harness";

describe("subscribe (§23.2, GAP-11)", () => {
  it("R-SUB-10/11: watches a list of sessions and says what it watches", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession({ title: "Review: server/" });
    const b = await h.ownerSession({ title: "Review: web/" });
    const result = await h.ok({
      action: "subscribe",
      sessions: [a.id, b.id],
      events: ["question_asked", "error", "all_idle"],
    });
    const subscription = result.subscription as { id: string };
    expect(result).toMatchObject({
      ok: true,
      summary: `subscribe → desk: 2 sessions (${subscription.id})`,
      subscription: {
        scope: "list",
        sessions: [
          { id: a.id, title: "Review: server/" },
          { id: b.id, title: "Review: web/" },
        ],
        events: ["question_asked", "error", "all_idle"],
        once: false,
        stalledMinutes: 15,
      },
    });
  });

  it('R-FEW-03, R-LSUB-07: ["all"] with exclude, digest and quiet hours; scope all', async () => {
    const h = await createWatchingHarness();
    const result = await h.ok({
      action: "subscribe",
      sessions: ["all"],
      exclude: ["77aa"],
      digest_minutes: 30,
      quiet_hours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
    });
    expect(result.subscription).toMatchObject({
      scope: "all",
      sessions: "all",
      digestMinutes: 30,
      quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
      exclude: ["77aa"],
      events: [
        "question_asked",
        "error",
        "turn_end",
        "subagent_finished",
        "task_failed",
        "stalled",
        "all_idle",
      ],
    });
    expect(result.summary).toMatch(/^subscribe → desk: all sessions \(sub_/);
  });

  it("R-FEW-19: exclude with a list of sessions is refused with the spec's words", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    expect(refusal(await h.call({ action: "subscribe", sessions: [a.id], exclude: ["x"] }))).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringContaining(
        'exclude goes with sessions ["all"] only; a list of sessions names what it watches.',
      ),
    });
  });

  it("R-FEW-16: wrong quiet hours are refused saying what is wrong; R-FEW-17: all-empty counts as none", async () => {
    const h = await createWatchingHarness();
    const bad = async (quiet_hours: unknown) =>
      refusal(await h.call({ action: "subscribe", sessions: ["all"], quiet_hours })).error;
    expect(await bad({ from: "23:00", to: "23:00", tz: "UTC" })).toContain(
      "quiet_hours from and to must differ",
    );
    expect(await bad({ from: "24:00", to: "06:00", tz: "UTC" })).toContain(
      'quiet_hours from and to must be times of day as "HH:MM" (00:00 to 23:59)',
    );
    expect(await bad({ from: "23:00", to: "06:00", tz: "Berlin" })).toContain(
      'quiet_hours tz "Berlin" is not an IANA time zone (for example "Europe/Berlin", "America/New_York", "UTC")',
    );
    const none = await h.ok({
      action: "subscribe",
      sessions: ["all"],
      quiet_hours: { from: "", to: "", tz: "" },
    });
    expect(none.subscription).not.toHaveProperty("quietHours");
  });

  it("R-SUB-06: the own conversation cannot be named; unknown sessions are not found; nothing is created", async () => {
    const h = await createWatchingHarness();
    expect(refusal(await h.call({ action: "subscribe", sessions: [h.caller.id] })).code).toBe(
      "REMOTE_RELAY_INVALID_INPUT",
    );
    expect(refusal(await h.call({ action: "subscribe", sessions: ["ses_nope"] })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
    expect(await h.stores.subscriptions.countActiveSubscriptions(h.caller.id)).toBe(0);
  });

  it("R-SUB-05: 20 subscriptions at a time; the 21st is refused with REMOTE_RELAY_LIMIT and nothing changes", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    for (let i = 0; i < LIMITS.subscriptionsPerConversation; i++) {
      await h.subscribe({ sessions: [a.id] });
    }
    const refused = refusal(await h.call({ action: "subscribe", sessions: [a.id] }));
    expect(refused.code).toBe("REMOTE_RELAY_LIMIT");
    expect(refused.error).toContain("20");
    expect(await h.stores.subscriptions.countActiveSubscriptions(h.caller.id)).toBe(20);
    // Ending one frees its place.
    const listed = await h.ok({ action: "list_subscriptions" });
    const first = (listed.subscriptions as { id: string }[])[0]?.id;
    await h.ok({ action: "unsubscribe", subscription_id: first });
    await h.subscribe({ sessions: [a.id] });
  });
});

describe("unsubscribe and list_subscriptions (§29, §30)", () => {
  it("R-UNSUB-01, R-LSUB-01, R-SLIFE-03: ends one or all; ended ones stay listed for an hour with the reason", async () => {
    const h = await createWatchingHarness();
    const a = await h.ownerSession();
    const one = await h.subscribe({ sessions: [a.id] });
    const two = await h.subscribe({ sessions: ["all"] });
    expect(await h.ok({ action: "unsubscribe", subscription_id: one })).toMatchObject({ ended: [one] });
    let listed = (await h.ok({ action: "list_subscriptions" })).subscriptions as Record<string, unknown>[];
    expect(listed).toEqual([
      expect.objectContaining({ id: one, active: false, endReason: "unsubscribed" }),
      expect.objectContaining({ id: two, active: true, heldCount: 0, nextDeliveryAt: null }),
    ]);
    expect(listed[0]).not.toHaveProperty("heldCount");
    expect(await h.ok({ action: "unsubscribe", subscription_id: "all" })).toMatchObject({ ended: [two] });
    await h.jump(61 * 60_000);
    listed = (await h.ok({ action: "list_subscriptions" })).subscriptions as Record<string, unknown>[];
    expect(listed).toEqual([]);
  });

  it("another conversation's subscription is not found; watcher shows another conversation's (R-LSUB-02)", async () => {
    const h = await createWatchingHarness();
    const other = await h.ownerSession();
    const a = await h.ownerSession();
    const theirs = await h.subscribe({ sessions: [a.id] }, other.id);
    expect(refusal(await h.call({ action: "unsubscribe", subscription_id: theirs })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
    const listed = await h.ok({ action: "list_subscriptions", watcher: other.id });
    expect(listed).toMatchObject({ watcher: other.id, subscriptions: [{ id: theirs, active: true }] });
  });
});

describe("approval cards of watching (R-SUB-04, R-XFER-02, R-FEW-24)", () => {
  it("the first subscribe asks the owner with its options; later ones do not", async () => {
    const h = await createWatchingHarness({ approvalCards: true });
    h.provider.hold();
    await h.engine.owner.postMessage(h.caller.id, "hold");
    await settle();
    const call = track(
      h.call({
        action: "subscribe",
        sessions: ["all"],
        exclude: ["77aa"],
        digest_minutes: 30,
        quiet_hours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
      }),
    );
    await settle(20);
    const [card] = await h.stores.cards.listCards({ status: "pending" });
    expect(card).toMatchObject({
      kind: "first_subscribe",
      detail: ["digest every 30 min, quiet 23:00–06:00 Europe/Berlin, except 1 it leaves out"],
    });
    expect(card?.text).toContain("watch sessions for the first time");
    await h.engine.owner.answerCard(card?.id ?? "", { choice: "allow" });
    await h.clock.advanceAsync(CARD_POLL_MS);
    expect(await call.promise).toMatchObject({ ok: true });
    await h.ok({ action: "subscribe", sessions: ["all"] });
    expect(await h.stores.cards.listCards({ status: "pending" })).toEqual([]);
  });

  it("transfer_subscriptions always asks, and moves the subscriptions with what they hold; Deny moves nothing", async () => {
    const h = await createWatchingHarness({ approvalCards: true });
    const old = await h.ownerSession({ title: "Old watcher" });
    const a = await h.ownerSession();
    await h.stores.cards.createCard({
      id: "card_pre",
      kind: "first_subscribe",
      conversation: old.id,
      action: "subscribe",
      targetRelay: "desk",
      targetSession: null,
      text: "",
      detail: [],
      createdAt: h.clock.now(),
      expiresAt: h.clock.now() + 1,
    });
    await h.stores.cards.answerCard({ id: "card_pre", decision: "allowed", at: h.clock.now() });
    const sub = await h.subscribe({ sessions: [a.id] }, old.id);
    h.provider.hold();
    await h.engine.owner.postMessage(h.caller.id, "hold");
    await settle();
    const transfer = async (choice: "allow" | "deny") => {
      const call = track(h.call({ action: "transfer_subscriptions", from: old.id }));
      await settle(20);
      const [card] = await h.stores.cards.listCards({ status: "pending" });
      expect(card).toMatchObject({ kind: "transfer_subscriptions" });
      await h.engine.owner.answerCard(card?.id ?? "", { choice });
      await h.clock.advanceAsync(CARD_POLL_MS);
      return call.promise;
    };
    expect(refusal(await transfer("deny")).code).toBe("REMOTE_RELAY_PERMISSION");
    expect(await h.stores.subscriptions.countActiveSubscriptions(old.id)).toBe(1);
    expect(await transfer("allow")).toMatchObject({ ok: true, from: old.id, transferred: [sub] });
    expect(await h.stores.subscriptions.countActiveSubscriptions(h.caller.id)).toBe(1);
    expect(await h.stores.subscriptions.countActiveSubscriptions(old.id)).toBe(0);
  });
});
