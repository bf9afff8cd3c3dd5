import { seededRandom } from "@oar/core/testing";
import { type SubscriptionRecord, watches } from "@oar/scheduler";
import { newSubscription } from "@oar/scheduler/testing";
import { describe, expect, it } from "vitest";
import { testStoresKind } from "../../src/testing";
import { ownerHarness } from "./harness";

/** The badges as the owner's views first computed them: every active subscription against every live session. */
function oracle(active: readonly SubscriptionRecord[], live: readonly string[]) {
  const watchedBy = new Map<string, Set<string>>();
  for (const subscription of active) {
    const set = watchedBy.get(subscription.watcher) ?? new Set<string>();
    for (const id of live) {
      if (watches(subscription, id)) {
        set.add(id);
      }
    }
    watchedBy.set(subscription.watcher, set);
  }
  const watched = new Set([...watchedBy.values()].flatMap((set) => [...set]));
  return (id: string) => ({ watched: watched.has(id), watching: watchedBy.get(id)?.size ?? 0 });
}

describe("the owner's watched and watching badges (R-UI-06, R-UI-07)", () => {
  // Each relay is a database of its own on PGlite and Postgres: 150 there would be minutes of
  // opening databases, so 12 (the property is checked in full on memory).
  const relays = testStoresKind() === "memory" ? 150 : 12;
  // Each relay on a database is one to open and fill: 10–16 s for the 12 on an idle 2-core machine,
  // so the suite's 30 s is too close when CI runs a real agent CLI beside it.
  it(`match every subscription read against every live session, over ${relays} random relays`, {
    timeout: 90_000,
  }, async () => {
    for (let seed = 1; seed <= relays; seed++) {
      const { next: random, pick } = seededRandom(seed);
      const { owner, stores } = await ownerHarness();
      const sessions: string[] = [];
      for (let i = 0; i < 7; i++) {
        sessions.push((await owner.createSession({ title: `s${i}` })).id);
      }
      const made: string[] = [];
      const subscriptionCount = Math.floor(random() * 9);
      for (let i = 0; i < subscriptionCount; i++) {
        const all = random() < 0.35;
        const some = () => sessions.filter(() => random() < 0.3);
        const kind = random();
        const id = `sub_${i}`;
        await stores.subscriptions.createSubscription(
          newSubscription(id, {
            watcher: kind < 0.1 ? "ses_elsewhere" : pick(sessions),
            scope: all ? "all" : "list",
            sessions: all ? [] : [pick(sessions), ...some()],
            exclude: all ? some() : [],
            // A mirror watches a paired relay's sessions; a paired relay's watcher watches ours.
            ...(kind > 0.9 ? { relay: "build-box", remoteId: `sub_there_${i}` } : {}),
            ...(kind > 0.8 && kind <= 0.9 ? { watcherRelay: "laptop" } : {}),
          }),
        );
        made.push(id);
      }
      for (const id of sessions) {
        if (random() < 0.25) {
          await owner.archiveSession(id);
        }
      }

      const active = (await stores.subscriptions.getSubscriptions(made)).filter((s) => s.endedAt === null);
      const live = (await owner.listSessions({ scope: "active" })).map((view) => view.id);
      const expected = oracle(active, live);
      for (const view of await owner.listSessions({ scope: "all" })) {
        const badges = { watched: view.watched, watching: view.watching };
        expect(badges, `seed ${seed}, ${view.id} listed`).toEqual(expected(view.id));
        const detail = await owner.getSession(view.id);
        expect({ watched: detail.watched, watching: detail.watching }, `seed ${seed}, ${view.id}`).toEqual(
          expected(view.id),
        );
      }
    }
  });
});
