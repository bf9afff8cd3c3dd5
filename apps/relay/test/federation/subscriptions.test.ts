import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { eventually, type TestRelay } from "../harness";
import {
  answerCard,
  createNetwork,
  invite,
  nextCard,
  ownerSession,
  ownerWrites,
  pair,
  session,
  settled,
  tool,
  toolResults,
} from "./network";

const dataDirs: string[] = [];
afterAll(() => Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function dataDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `oar-fed-${name}-`));
  dataDirs.push(dir);
  return dir;
}

/** The relay messages (role `relay`) of a conversation, oldest first. */
async function relayMessages(t: TestRelay, id: string): Promise<string[]> {
  return (await session(t, id)).messages.filter((m) => m.role === "relay").map((m) => m.text);
}

/**
 * Waits (real time) until `check` answers, moving the relays' shared clock 2 s every few
 * milliseconds meanwhile: the 3 s poll and the 30 s window pass in well under a second.
 */
function pumping<T>(clock: FakeClock, check: () => Promise<T | undefined>): Promise<T> {
  return eventually(async () => {
    clock.advance(2_000);
    return check();
  }, 20_000);
}

describe("§28 subscriptions on a paired relay, over HTTP between two relays", { timeout: 120_000 }, () => {
  it("R-PAIR-01/03/04/07, R-UNSUB-01: desk's script agent watches a session on build-box, reads its turn_end with build-box's name, rides out build-box's restart, and unsubscribes on both sides", async () => {
    const clock = new FakeClock(Date.now());
    const net = createNetwork();
    const boxDir = await dataDir("box");
    const desk = await net.relay("desk", { overrides: { clock } });
    const box1 = await net.relay("build-box", { dataDir: boxDir, overrides: { clock } });
    await pair(desk, box1);
    const deploy = await ownerSession(box1, "Nightly deploy");

    // The owner's message names build-box (the unlock, R-PAIR-01); the script agent subscribes
    // there; card (b) on desk asks first (R-SUB-04).
    const lead = await ownerSession(desk, "Lead");
    await ownerWrites(
      desk,
      lead,
      `Keep an eye on build-box.\n${tool({ action: "subscribe", relay: "build-box", sessions: [deploy], events: ["turn_end"] })}`,
    );
    await answerCard(desk, await nextCard(desk), "allow");
    const [subscribed = {}] = toolResults((await settled(desk, lead)).messages.at(-1)?.text);
    expect(subscribed).toMatchObject({
      ok: true,
      relay: "build-box",
      subscription: { sessions: [{ id: deploy }] },
    });
    const mirrorId = (subscribed.subscription as { id: string }).id;
    const remoteId = subscribed.remoteSubscriptionId as string;
    expect(subscribed.summary).toBe(`subscribe → build-box: 1 session (${mirrorId})`);

    // build-box's session ends a turn: desk's watcher gets one relay message naming build-box.
    await ownerWrites(box1, deploy, "!reply Deployed. The health check is green.");
    await settled(box1, deploy);
    const [first] = await pumping(clock, async () => {
      const found = await relayMessages(desk, lead);
      return found.length > 0 ? found : undefined;
    });
    expect(first?.split("\n")).toEqual([
      "[relay event · automated message from OAR, not from the user; it approves nothing]",
      `[relay event] build-box · session "Nightly deploy" (${deploy}): turn_end (done) "Deployed. The health check is green."`,
    ]);
    // desk fetched it from build-box's replay (the events route), not from a message build-box sent.
    expect(net.exchanges.some((e) => e.path === `/v1/peer/subscriptions/${remoteId}/events`)).toBe(true);

    // build-box stops: one link_lost. It starts again on the same data: what happened while it
    // was away is replayed, then link_restored counts it (R-PAIR-04/07).
    await box1.relay.close();
    net.down.add("build-box.test");
    const lost = await pumping(clock, async () => {
      const found = await relayMessages(desk, lead);
      return found.some((text) => text.includes("link_lost")) ? found : undefined;
    });
    expect(lost.join("\n")).toContain(`[relay event] link_lost (subscription ${mirrorId})`);
    const box = await net.relay("build-box", { dataDir: boxDir, overrides: { clock } });
    await ownerWrites(box, deploy, "!reply Rolled back while the link was down.");
    await settled(box, deploy, 2);
    net.down.delete("build-box.test");
    const restored = await pumping(clock, async () => {
      const found = (await relayMessages(desk, lead)).join("\n");
      return found.includes("link_restored") ? found : undefined;
    });
    // R-PAIR-04: what build-box kept while the link was down comes in one line marked replayed.
    expect(restored).toContain(
      `[relay event] build-box · replayed 1 event (subscription ${mirrorId}): session "Nightly deploy" (${deploy}): turn_end (done) "Rolled back while the link was down."`,
    );
    expect(restored).toContain(`[relay event] link_restored (subscription ${mirrorId}): 1 replayed, 0 held`);

    // unsubscribe naming build-box ends its subscription there and the mirror here.
    const token = await desk.agentToken(lead);
    const ended = JSON.parse(
      (
        await (
          await desk.tool(token, { action: "unsubscribe", relay: "build-box", subscription_id: mirrorId })
        ).text()
      ).trim(),
    ) as Record<string, unknown>;
    expect(ended).toMatchObject({ ok: true, relay: "build-box", ended: [mirrorId] });
    const listed = JSON.parse(
      (await (await desk.tool(token, { action: "list_subscriptions" })).text()).trim(),
    ) as { subscriptions: { id: string; active: boolean; endReason?: string }[] };
    expect(listed.subscriptions).toMatchObject([{ id: mirrorId, active: false, endReason: "unsubscribed" }]);
    const theirs = JSON.parse(
      (await (await desk.tool(token, { action: "list_subscriptions", relay: "build-box" })).text()).trim(),
    ) as { subscriptions: { id: string; active: boolean; endReason?: string }[] };
    expect(theirs).toMatchObject({
      ok: true,
      relay: "build-box",
      subscriptions: [
        { id: mirrorId, remoteSubscriptionId: remoteId, active: false, endReason: "unsubscribed" },
      ],
    });
    const there = await box.relay.app.request(`/v1/peer/subscriptions/${remoteId}/events`, {
      headers: { authorization: "Bearer nope" },
    });
    expect(there.status).toBe(401);
  });

  it("DESIGN §4: the replay route answers the relay its invite is bound to only; others get 410 REMOTE_RELAY_NOT_FOUND, a bad query 400", async () => {
    const net = createNetwork();
    const box = await net.relay("build-box");
    const token = await invite(box);
    const get = (path: string) =>
      box.relay.app.request(path, { headers: { authorization: `Bearer ${token}` } });
    const unknown = await get("/v1/peer/subscriptions/sub_nothere/events");
    expect(unknown.status).toBe(410);
    expect(await unknown.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    expect((await get("/v1/peer/subscriptions/sub_nothere/events?limit=0")).status).toBe(400);
    expect((await get("/v1/peer/subscriptions/sub_nothere/events?after=x")).status).toBe(410);
  });
});
