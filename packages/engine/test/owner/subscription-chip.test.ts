import { newSubscription } from "@oar/scheduler/testing";
import { OwnerSessionDetailSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { refusal as toolRefusal } from "../actions/harness";
import { createWatchingHarness } from "../watching/watching-harness";
import { refusal } from "./harness";

describe("the watching chip: a conversation's subscriptions (R-UI-06)", () => {
  it("R-UI-06: lists the live subscriptions it holds as the watcher, with titles and options, as list_subscriptions shows them", async () => {
    const h = await createWatchingHarness();
    const server = await h.ownerSession({ title: "Review: server/" });
    const web = await h.ownerSession({ title: "Review: web/" });
    const list = await h.subscribe({ sessions: [server.id, web.id], events: ["turn_end", "error"] });
    const all = await h.subscribe({
      sessions: ["all"],
      exclude: [web.id],
      digest_minutes: 30,
      quiet_hours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
    });
    const gone = await h.subscribe({ sessions: [web.id], once: true });
    await h.ok({ action: "unsubscribe", subscription_id: gone });

    const detail = await h.engine.owner.getSession(h.caller.id);
    expect(detail.subscriptions).toEqual([
      {
        id: list,
        relay: null,
        scope: "list",
        sessions: [
          { id: server.id, title: "Review: server/" },
          { id: web.id, title: "Review: web/" },
        ],
        exclude: [],
        events: ["turn_end", "error"],
        once: false,
        match: null,
        stalledMinutes: 15,
        heartbeatMinutes: null,
        active: true,
        heldCount: 0,
        nextDeliveryAt: null,
      },
      expect.objectContaining({
        id: all,
        relay: null,
        scope: "all",
        sessions: "all",
        exclude: [web.id],
        digestMinutes: 30,
        quietHours: { from: "23:00", to: "06:00", tz: "Europe/Berlin" },
        active: true,
      }),
    ]);
    // The same entries the agent's list_subscriptions gives (the ended one aside).
    const listed = await h.ok({ action: "list_subscriptions" });
    expect(listed.subscriptions).toEqual([
      ...detail.subscriptions.map(({ relay: _relay, exclude, ...entry }) =>
        exclude.length === 0 ? entry : { ...entry, exclude },
      ),
      expect.objectContaining({ id: gone, active: false }),
    ]);
    expect(OwnerSessionDetailSchema.parse(detail).subscriptions).toHaveLength(2);
    // server/ and web/: the list names both, the `all` one adds no other live session.
    expect(detail.watching).toBe(2);
    // The watched sessions hold none.
    expect((await h.engine.owner.getSession(server.id)).subscriptions).toEqual([]);
  });

  it("R-UI-06: a mirror names the paired relay it watches; a paired relay's conversation watching here is not this one's chip", async () => {
    const h = await createWatchingHarness();
    await h.stores.subscriptions.createSubscription(
      newSubscription("sub_mirror", {
        watcher: h.caller.id,
        relay: "build-box",
        remoteId: "sub_there",
        sessions: ["ses_remote"],
      }),
    );
    await h.stores.subscriptions.createSubscription(
      newSubscription("sub_for_laptop", { watcher: h.caller.id, watcherRelay: "laptop", sessions: [] }),
    );
    const detail = await h.engine.owner.getSession(h.caller.id);
    expect(detail.subscriptions).toMatchObject([
      { id: "sub_mirror", relay: "build-box", scope: "list", sessions: [{ id: "ses_remote" }], active: true },
    ]);
  });
});

describe("Unsubscribe by the owner (R-UI-06, R-SLIFE-02 (a))", () => {
  it("R-SLIFE-02 (a): ends the subscription as the agent's unsubscribe does; watching drops and its events stop", async () => {
    const h = await createWatchingHarness();
    const server = await h.ownerSession({ title: "Review: server/" });
    const web = await h.ownerSession({ title: "Review: web/" });
    const api = await h.ownerSession({ title: "Review: api/" });
    const first = await h.subscribe({ sessions: [server.id, web.id], events: ["turn_end"] });
    const second = await h.subscribe({ sessions: [api.id], events: ["turn_end"] });
    expect((await h.engine.owner.getSession(h.caller.id)).watching).toBe(3);
    expect((await h.engine.owner.getSession(server.id)).watched).toBe(true);

    expect(await h.engine.owner.unsubscribe(first)).toEqual({ ended: [first] });

    const detail = await h.engine.owner.getSession(h.caller.id);
    expect(detail.watching).toBe(1);
    expect(detail.subscriptions.map((s) => s.id)).toEqual([second]);
    expect((await h.engine.owner.getSession(server.id)).watched).toBe(false);
    const listed = await h.ok({ action: "list_subscriptions" });
    expect(listed.subscriptions).toMatchObject([
      { id: first, active: false, endReason: "unsubscribed" },
      { id: second, active: true },
    ]);
    await h.prompt(server);
    await h.pass(60_000);
    expect(await h.eventMessages()).toEqual([]);
  });

  it("R-SLIFE-02 (a): one that had ended already changes nothing and says so; an unknown id is REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createWatchingHarness();
    const target = await h.ownerSession();
    const id = await h.subscribe({ sessions: [target.id] });
    await h.engine.owner.unsubscribe(id);
    const again = await h.engine.owner.unsubscribe(id);
    expect(again).toEqual({
      ended: [],
      note: `Subscription ${id} had already ended (unsubscribed); nothing changed.`,
    });
    expect((await refusal(h.engine.owner.unsubscribe("sub_nope"), "REMOTE_RELAY_NOT_FOUND")).message).toBe(
      "No subscription sub_nope on this relay.",
    );
    // The agent's own unsubscribe after the owner's: nothing left to end, and it says so too.
    expect(toolRefusal(await h.call({ action: "unsubscribe", subscription_id: "sub_nope" })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
    expect(await h.ok({ action: "unsubscribe", subscription_id: id })).toMatchObject({ ended: [] });
  });

  it("a subscription a paired relay's conversation holds here is that relay's to end: REMOTE_RELAY_NOT_FOUND", async () => {
    const h = await createWatchingHarness();
    await h.stores.subscriptions.createSubscription(
      newSubscription("sub_for_laptop", { watcher: "ses_laptop", watcherRelay: "laptop", sessions: [] }),
    );
    const refused = await refusal(h.engine.owner.unsubscribe("sub_for_laptop"), "REMOTE_RELAY_NOT_FOUND");
    expect(refused.message).toContain('relay "laptop" holds it here');
    expect(await h.stores.subscriptions.getSubscription("sub_for_laptop")).toMatchObject({ endedAt: null });
  });
});
