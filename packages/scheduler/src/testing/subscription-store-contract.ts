import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import type { NewSubscription, SubscriptionRecord, SubscriptionStore } from "../ports/subscription-store";

/**
 * A SubscriptionStore fixture. `transaction`, when the store has them, runs `work` on the store
 * bound to one transaction that rolls back if `work` throws.
 */
export interface SubscriptionStoreFixture extends ContractFixture<SubscriptionStore> {
  readonly transaction?: <T>(work: (store: SubscriptionStore) => Promise<T>) => Promise<T>;
}

const MINUTE = 60_000;

/** A `list` subscription of `watcher` to ses_1 with the default events; the fields a test sets win. */
export function newSubscription(id: string, overrides: Partial<NewSubscription> = {}): NewSubscription {
  return {
    id,
    watcher: "ses_watcher",
    scope: "list",
    sessions: ["ses_1"],
    exclude: [],
    events: null,
    once: false,
    match: null,
    stalledMinutes: 15,
    heartbeatMinutes: null,
    digestMinutes: null,
    quietHours: null,
    createdAt: T0,
    nextTickAt: null,
    ...overrides,
  };
}

const ids = (records: readonly { id: string }[]) => records.map((r) => r.id);

/** The behaviour every SubscriptionStore must have: subscriptions that survive restarts (§23–§32). */
export function runSubscriptionStoreContract(setup: ContractSetup<SubscriptionStoreFixture>): void {
  describe("SubscriptionStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const create = (id: string, overrides: Partial<NewSubscription> = {}) =>
      store().createSubscription(newSubscription(id, overrides));

    it("creates a subscription and reads it back whole", async () => {
      const created = await create("sub_1", {
        sessions: ["ses_1", "ses_2"],
        events: ["turn_end", "error"],
        once: true,
        match: "deploy",
        stalledMinutes: 30,
        heartbeatMinutes: 60,
        digestMinutes: 10,
        quietHours: { from: "22:00", to: "07:00", tz: "Europe/Paris" },
        createdAt: T0 + 5,
        nextTickAt: T0 + 60 * MINUTE,
      });
      expect(created).toEqual({
        id: "sub_1",
        watcher: "ses_watcher",
        watcherRelay: null,
        relay: null,
        remoteId: null,
        remoteCursor: null,
        linkLostAt: null,
        remoteEndedAt: null,
        scope: "list",
        sessions: ["ses_1", "ses_2"],
        exclude: [],
        events: ["turn_end", "error"],
        once: true,
        match: "deploy",
        stalledMinutes: 30,
        heartbeatMinutes: 60,
        digestMinutes: 10,
        quietHours: { from: "22:00", to: "07:00", tz: "Europe/Paris" },
        createdAt: T0 + 5,
        lastDigestAt: null,
        nextTickAt: T0 + 60 * MINUTE,
        endedAt: null,
        endReason: null,
      });
      expect(await store().getSubscription("sub_1")).toEqual(created);
      expect(await store().getSubscription("sub_missing")).toBeNull();
    });

    it("reads several subscriptions at once, ended ones included, each once", async () => {
      const one = await create("sub_1");
      const two = await create("sub_2", { sessions: ["ses_9"] });
      await create("sub_3");
      await store().endSubscriptions({ ids: ["sub_2"], reason: "unsubscribed", at: T0 + 10 });
      const read = await store().getSubscriptions(["sub_2", "sub_missing", "sub_1", "sub_2"]);
      expect([...read].sort((a, b) => a.id.localeCompare(b.id))).toEqual([
        one,
        { ...two, endedAt: T0 + 10, endReason: "unsubscribed" },
      ]);
      expect(await store().getSubscriptions([])).toEqual([]);
    });

    it("§28: keeps a remote watcher's relay; mirrors are listed apart, never as watching a session here", async () => {
      const remote = await create("sub_remote", {
        watcher: "conv_far",
        watcherRelay: "desk",
        scope: "all",
        sessions: [],
      });
      expect(remote).toMatchObject({ watcherRelay: "desk", relay: null, remoteId: null });
      const mirror = await create("sub_mirror", {
        scope: "all",
        sessions: [],
        relay: "build-box",
        remoteId: "sub_there",
      });
      await create("sub_mirror2", { sessions: ["77aa"], relay: "other", remoteId: "sub_x" });
      expect(mirror).toMatchObject({
        relay: "build-box",
        remoteId: "sub_there",
        remoteCursor: null,
        linkLostAt: null,
      });
      expect(ids(await store().listSubscriptionsWatching(["ses_1"]))).toEqual(["sub_remote"]);
      expect(ids(await store().listSubscriptionsWatching(["77aa"]))).toEqual(["sub_remote"]);
      expect(ids(await store().listMirrors())).toEqual(["sub_mirror", "sub_mirror2"]);
      expect(ids(await store().listMirrors({ relay: "build-box" }))).toEqual(["sub_mirror"]);
      await store().setMirrorState("sub_mirror", { remoteCursor: "42", linkLostAt: T0 + 7 });
      expect(await store().getSubscription("sub_mirror")).toMatchObject({
        remoteCursor: "42",
        linkLostAt: T0 + 7,
      });
      await store().setMirrorState("sub_mirror", { linkLostAt: null });
      expect(await store().getSubscription("sub_mirror")).toMatchObject({
        remoteCursor: "42",
        linkLostAt: null,
      });
      expect(await store().listMirrorsToEnd()).toEqual([]);
      await store().endSubscriptions({ ids: ["sub_mirror"], reason: "unpaired", at: T0 + 8 });
      expect(ids(await store().listMirrors({ relay: "build-box" }))).toEqual([]);
      expect(ids(await store().listMirrorsToEnd())).toEqual(["sub_mirror"]);
      await store().setMirrorState("sub_mirror", { remoteEndedAt: T0 + 9 });
      expect(await store().getSubscription("sub_mirror")).toMatchObject({ remoteEndedAt: T0 + 9 });
      expect(await store().listMirrorsToEnd()).toEqual([]);
    });

    it("keeps an `all` subscription with its exclusions and the default event set", async () => {
      const created = await create("sub_all", { scope: "all", sessions: [], exclude: ["ses_2", "ses_3"] });
      expect(created).toMatchObject({
        scope: "all",
        sessions: [],
        exclude: ["ses_2", "ses_3"],
        events: null,
      });
      expect(await store().getSubscription("sub_all")).toEqual(created);
    });

    it("refuses a second subscription with the same id", async () => {
      await create("sub_1");
      await expect(create("sub_1", { watcher: "ses_other" })).rejects.toThrow();
      expect((await store().getSubscription("sub_1"))?.watcher).toBe("ses_watcher");
    });

    it("lists a watcher's active subscriptions and those ended since a time, oldest first", async () => {
      await create("sub_b", { createdAt: T0 + 1 });
      await create("sub_a", { createdAt: T0 + 1 });
      await create("sub_old", { createdAt: T0 + 2 });
      await create("sub_recent", { createdAt: T0 + 3 });
      await create("sub_edge", { createdAt: T0 + 4 });
      await create("sub_other", { watcher: "ses_other", createdAt: T0 + 5 });
      await store().endSubscriptions({ ids: ["sub_old"], reason: "unsubscribed", at: T0 + 10 });
      await store().endSubscriptions({ ids: ["sub_recent"], reason: "once", at: T0 + 30 });
      await store().endSubscriptions({ ids: ["sub_edge"], reason: "archived", at: T0 + 20 });

      expect(ids(await store().listSubscriptions({ watcher: "ses_watcher", endedSince: T0 + 20 }))).toEqual([
        "sub_b",
        "sub_a",
        "sub_recent",
        "sub_edge",
      ]);
      expect(ids(await store().listSubscriptions({ watcher: "ses_watcher", endedSince: 0 }))).toEqual([
        "sub_b",
        "sub_a",
        "sub_old",
        "sub_recent",
        "sub_edge",
      ]);
      expect(ids(await store().listSubscriptions({ watcher: "ses_watcher", endedSince: null }))).toEqual([
        "sub_b",
        "sub_a",
      ]);
      expect(await store().listSubscriptions({ watcher: "ses_nobody", endedSince: 0 })).toEqual([]);
    });

    // A call with Number.MAX_SAFE_INTEGER as an instant passed every memory test and failed every
    // call on the databases ("Invalid time value"): every store refuses it.
    it("refuses an instant a date cannot hold (STORAGE)", async () => {
      await create("sub_a");
      await expect(
        store().listSubscriptions({ watcher: "ses_watcher", endedSince: Number.MAX_SAFE_INTEGER }),
      ).rejects.toMatchObject({ code: "STORAGE" });
    });

    it("counts a watcher's active subscriptions", async () => {
      await create("sub_1");
      await create("sub_2", { scope: "all", sessions: [] });
      await create("sub_ended");
      await create("sub_other", { watcher: "ses_other" });
      await store().endSubscriptions({ ids: ["sub_ended"], reason: "unsubscribed", at: T0 });
      expect(await store().countActiveSubscriptions("ses_watcher")).toBe(2);
      expect(await store().countActiveSubscriptions("ses_other")).toBe(1);
      expect(await store().countActiveSubscriptions("ses_nobody")).toBe(0);
    });

    it("finds the active subscriptions an event of a session may concern: lists naming it and every `all`", async () => {
      await create("sub_list", { sessions: ["ses_2", "ses_1"] });
      await create("sub_all", { scope: "all", sessions: [], watcher: "ses_other" });
      // The caller applies `exclude`, so an excluding `all` subscription is still found.
      await create("sub_all_excluding", { scope: "all", sessions: [], exclude: ["ses_1"] });
      await create("sub_elsewhere", { sessions: ["ses_2"] });
      await create("sub_ended", { sessions: ["ses_1"] });
      await create("sub_all_ended", { scope: "all", sessions: [] });
      await store().endSubscriptions({ ids: ["sub_ended", "sub_all_ended"], reason: "unsubscribed", at: T0 });

      expect(ids(await store().listSubscriptionsWatching(["ses_1"]))).toEqual([
        "sub_list",
        "sub_all",
        "sub_all_excluding",
      ]);
      expect(ids(await store().listSubscriptionsWatching(["ses_2"]))).toEqual([
        "sub_list",
        "sub_all",
        "sub_all_excluding",
        "sub_elsewhere",
      ]);
      expect(ids(await store().listSubscriptionsWatching(["ses_9"]))).toEqual([
        "sub_all",
        "sub_all_excluding",
      ]);
      // Several sessions at once: each subscription once, oldest first.
      expect(ids(await store().listSubscriptionsWatching(["ses_2", "ses_1", "ses_9"]))).toEqual([
        "sub_list",
        "sub_all",
        "sub_all_excluding",
        "sub_elsewhere",
      ]);
      expect(await store().listSubscriptionsWatching([])).toEqual([]);
      // Many sessions at once (an owner's list): the same answer.
      const many = Array.from({ length: 60 }, (_, i) => `ses_many_${i}`);
      expect(ids(await store().listSubscriptionsWatching([...many, "ses_1"]))).toEqual([
        "sub_list",
        "sub_all",
        "sub_all_excluding",
      ]);
      expect(ids(await store().listSubscriptionsWatching([...many, "ses_2", "ses_9"]))).toEqual([
        "sub_list",
        "sub_all",
        "sub_all_excluding",
        "sub_elsewhere",
      ]);
      expect(ids(await store().listSubscriptionsWatching(many))).toEqual(["sub_all", "sub_all_excluding"]);
    });

    it("lists the active subscriptions of the watchers asked for, mirrors included, oldest first", async () => {
      await create("sub_2", { createdAt: T0 + 1 });
      await create("sub_1", { createdAt: T0 + 2, watcher: "ses_other" });
      await create("sub_3", { createdAt: T0 + 3, watcher: "ses_third" });
      await create("sub_mirror", { createdAt: T0 + 4, relay: "build-box", remoteId: "sub_there" });
      await create("sub_ended");
      await store().endSubscriptions({ ids: ["sub_ended"], reason: "unsubscribed", at: T0 });
      expect(ids(await store().listActiveSubscriptionsOf(["ses_watcher", "ses_other"]))).toEqual([
        "sub_2",
        "sub_1",
        "sub_mirror",
      ]);
      expect(ids(await store().listActiveSubscriptionsOf(["ses_third"]))).toEqual(["sub_3"]);
      expect(await store().listActiveSubscriptionsOf(["ses_nobody"])).toEqual([]);
      expect(await store().listActiveSubscriptionsOf([])).toEqual([]);
    });

    it("ends only active subscriptions, and says which it ended", async () => {
      await create("sub_1");
      await create("sub_2");
      await create("sub_3");
      expect(await store().endSubscriptions({ ids: ["sub_2"], reason: "once", at: T0 + 1 })).toEqual([
        "sub_2",
      ]);
      expect(
        await store().endSubscriptions({
          ids: ["sub_3", "sub_2", "sub_missing", "sub_1"],
          reason: "unsubscribed",
          at: T0 + 2,
        }),
      ).toEqual(["sub_1", "sub_3"]);
      // The first end stands.
      expect(await store().getSubscription("sub_2")).toMatchObject({ endedAt: T0 + 1, endReason: "once" });
      expect(await store().getSubscription("sub_1")).toMatchObject({
        endedAt: T0 + 2,
        endReason: "unsubscribed",
      });
      expect(await store().endSubscriptions({ ids: [], reason: "unsubscribed", at: T0 + 3 })).toEqual([]);
    });

    it("GAP-17: a forgotten session leaves the lists, ends the emptied ones and those it watched from", async () => {
      await create("sub_two", { sessions: ["ses_1", "ses_2"], createdAt: T0 + 1 });
      await create("sub_only", { sessions: ["ses_1"], createdAt: T0 + 2 });
      const all = await create("sub_all", {
        scope: "all",
        sessions: [],
        exclude: ["ses_1"],
        createdAt: T0 + 3,
      });
      const elsewhere = await create("sub_elsewhere", { sessions: ["ses_2"], createdAt: T0 + 4 });
      await create("sub_its_all", { watcher: "ses_1", scope: "all", sessions: [], createdAt: T0 + 5 });
      await create("sub_its_list", { watcher: "ses_1", sessions: ["ses_2"], createdAt: T0 + 6 });
      await create("sub_ended", { sessions: ["ses_1"], createdAt: T0 + 7 });
      await store().endSubscriptions({ ids: ["sub_ended"], reason: "unsubscribed", at: T0 + 8 });
      const ended = await store().getSubscription("sub_ended");

      expect(await store().forgetSession({ sessionId: "ses_1", at: T0 + 10 })).toEqual([
        "sub_only",
        "sub_its_all",
        "sub_its_list",
      ]);
      expect(await store().getSubscription("sub_two")).toMatchObject({
        sessions: ["ses_2"],
        endedAt: null,
        endReason: null,
      });
      expect(await store().getSubscription("sub_only")).toMatchObject({
        sessions: [],
        endedAt: T0 + 10,
        endReason: "archived",
      });
      expect(await store().getSubscription("sub_all")).toEqual(all);
      expect(await store().getSubscription("sub_elsewhere")).toEqual(elsewhere);
      expect(await store().getSubscription("sub_its_all")).toMatchObject({
        endedAt: T0 + 10,
        endReason: "watcher_archived",
      });
      expect(await store().getSubscription("sub_its_list")).toMatchObject({
        sessions: ["ses_2"],
        endedAt: T0 + 10,
        endReason: "watcher_archived",
      });
      expect(await store().getSubscription("sub_ended")).toEqual(ended);
      expect(ids(await store().listSubscriptionsWatching(["ses_1"]))).toEqual(["sub_all"]);

      expect(await store().forgetSession({ sessionId: "ses_1", at: T0 + 11 })).toEqual([]);
    });

    it("moves the active subscriptions of one watcher to another (§31)", async () => {
      await create("sub_1", { watcher: "ses_from" });
      await create("sub_2", { watcher: "ses_from", scope: "all", sessions: [] });
      await create("sub_ended", { watcher: "ses_from" });
      await create("sub_theirs", { watcher: "ses_to" });
      await store().endSubscriptions({ ids: ["sub_ended"], reason: "unsubscribed", at: T0 });

      expect(
        await store().transferSubscriptions({ from: "ses_from", to: "ses_to", watcherRelay: null }),
      ).toEqual(["sub_1", "sub_2"]);
      expect(ids(await store().listSubscriptions({ watcher: "ses_to", endedSince: 0 }))).toEqual([
        "sub_1",
        "sub_2",
        "sub_theirs",
      ]);
      expect(ids(await store().listSubscriptions({ watcher: "ses_from", endedSince: 0 }))).toEqual([
        "sub_ended",
      ]);
      expect(
        await store().transferSubscriptions({ from: "ses_from", to: "ses_to", watcherRelay: null }),
      ).toEqual([]);
    });

    it("§28: moves a paired relay's conversation's subscriptions kept here, or this one's mirrors of one relay, and nothing else", async () => {
      // Kept here for desk's conversations; one of this relay's own conversations with the same id.
      await create("sub_desk", { watcher: "ses_from", watcherRelay: "desk" });
      await create("sub_other_relay", { watcher: "ses_from", watcherRelay: "laptop" });
      await create("sub_local", { watcher: "ses_from" });
      // This relay's mirrors of subscriptions kept on build-box and on laptop.
      await create("sub_mirror_box", { watcher: "ses_from", relay: "build-box", remoteId: "sub_there" });
      await create("sub_mirror_laptop", { watcher: "ses_from", relay: "laptop", remoteId: "sub_far" });

      expect(
        await store().transferSubscriptions({ from: "ses_from", to: "ses_to", watcherRelay: "desk" }),
      ).toEqual(["sub_desk"]);
      expect(await store().getSubscription("sub_desk")).toMatchObject({
        watcher: "ses_to",
        watcherRelay: "desk",
      });
      expect(
        await store().transferSubscriptions({
          from: "ses_from",
          to: "ses_to",
          watcherRelay: null,
          mirrorsOf: "build-box",
        }),
      ).toEqual(["sub_mirror_box"]);
      // A transfer on this relay moves what is kept here; the mirrors stay with their relay's transfer.
      expect(
        await store().transferSubscriptions({ from: "ses_from", to: "ses_to", watcherRelay: null }),
      ).toEqual(["sub_local"]);
      const left = await store().listSubscriptions({ watcher: "ses_from", endedSince: 0 });
      expect(ids(left).sort()).toEqual(["sub_mirror_laptop", "sub_other_relay"]);
    });

    it("claims the active subscriptions whose tick is due, earliest first, at most `limit`", async () => {
      await create("sub_late", { nextTickAt: T0 + 3 * MINUTE });
      await create("sub_early", { nextTickAt: T0 + MINUTE });
      await create("sub_now", { nextTickAt: T0 + 2 * MINUTE });
      await create("sub_future", { nextTickAt: T0 + 10 * MINUTE });
      await create("sub_none", { nextTickAt: null });
      await create("sub_ended", { nextTickAt: T0 });
      await store().endSubscriptions({ ids: ["sub_ended"], reason: "unsubscribed", at: T0 });

      const now = T0 + 3 * MINUTE;
      expect(ids(await store().claimDueTicks({ now, limit: 10 }))).toEqual([
        "sub_early",
        "sub_now",
        "sub_late",
      ]);
      expect(ids(await store().claimDueTicks({ now, limit: 2 }))).toEqual(["sub_early", "sub_now"]);
      expect(await store().claimDueTicks({ now: T0, limit: 10 })).toEqual([]);
      const [claimed] = await store().claimDueTicks({ now, limit: 1 });
      expect(claimed).toEqual(await store().getSubscription("sub_early"));
    });

    it("sets the digest and tick times, leaving the one not given as it was", async () => {
      await create("sub_1", { nextTickAt: T0 + MINUTE });
      await store().setTiming("sub_1", { lastDigestAt: T0 + 5 });
      expect(await store().getSubscription("sub_1")).toMatchObject({
        lastDigestAt: T0 + 5,
        nextTickAt: T0 + MINUTE,
      });
      await store().setTiming("sub_1", { nextTickAt: T0 + 2 * MINUTE });
      expect(await store().getSubscription("sub_1")).toMatchObject({
        lastDigestAt: T0 + 5,
        nextTickAt: T0 + 2 * MINUTE,
      });
      await store().setTiming("sub_1", { lastDigestAt: null, nextTickAt: null });
      expect(await store().getSubscription("sub_1")).toMatchObject({ lastDigestAt: null, nextTickAt: null });
      await store().setTiming("sub_1", {});
      expect(await store().getSubscription("sub_1")).toMatchObject({ lastDigestAt: null, nextTickAt: null });
      await store().setTiming("sub_missing", { nextTickAt: T0 });
      expect(await store().getSubscription("sub_missing")).toBeNull();
    });

    it("moves the active subscriptions' ticks earlier, never later, in one call", async () => {
      await create("sub_late", { nextTickAt: T0 + 10 * MINUTE });
      await create("sub_soon", { nextTickAt: T0 + MINUTE });
      await create("sub_none");
      await create("sub_ended", { nextTickAt: T0 + 10 * MINUTE });
      await store().endSubscriptions({ ids: ["sub_ended"], reason: "unsubscribed", at: T0 });
      await store().advanceTicks({
        ids: ["sub_late", "sub_soon", "sub_none", "sub_ended", "sub_missing"],
        at: T0 + 5 * MINUTE,
      });
      const tickOf = async (id: string) => (await store().getSubscription(id))?.nextTickAt;
      expect(await tickOf("sub_late")).toBe(T0 + 5 * MINUTE);
      expect(await tickOf("sub_soon")).toBe(T0 + MINUTE);
      expect(await tickOf("sub_none")).toBe(T0 + 5 * MINUTE);
      expect(await tickOf("sub_ended")).toBe(T0 + 10 * MINUTE);
      await store().advanceTicks({ ids: [], at: T0 });
      expect(await tickOf("sub_soon")).toBe(T0 + MINUTE);
    });

    it("gives the earliest tick of an active subscription, or null", async () => {
      expect(await store().nextTickAt()).toBeNull();
      await create("sub_none");
      expect(await store().nextTickAt()).toBeNull();
      await create("sub_late", { nextTickAt: T0 + 2 * MINUTE });
      await create("sub_ended", { nextTickAt: T0 });
      await create("sub_early", { nextTickAt: T0 + MINUTE });
      await store().endSubscriptions({ ids: ["sub_ended"], reason: "unsubscribed", at: T0 });
      expect(await store().nextTickAt()).toBe(T0 + MINUTE);
    });

    it("undoes the changes of a transaction that failed", async () => {
      const transaction = fixture().transaction;
      if (transaction === undefined) {
        return;
      }
      const kept: SubscriptionRecord = await create("sub_1", { sessions: ["ses_1", "ses_2"] });
      await expect(
        transaction(async (tx) => {
          await tx.createSubscription(newSubscription("sub_lost"));
          await tx.forgetSession({ sessionId: "ses_1", at: T0 + 1 });
          await tx.setTiming("sub_1", { nextTickAt: T0 + 2 });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await store().getSubscription("sub_lost")).toBeNull();
      expect(await store().getSubscription("sub_1")).toEqual(kept);
    });
  });
}
