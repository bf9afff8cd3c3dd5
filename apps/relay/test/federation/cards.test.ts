import type { OwnerSessionDetail } from "@oar/engine";
import { describe, expect, it } from "vitest";
import { eventually, type TestRelay } from "../harness";
import {
  answerCard,
  bearer,
  call,
  createNetwork,
  externalCaller,
  invite,
  nextCard,
  ownerSession,
  pair,
  pendingCards,
  session,
  settled,
  tool,
  toolResults,
} from "./network";

/** desk paired with build-box, an external conversation on desk that has build-box unlocked. */
async function deskAndBox() {
  const net = createNetwork();
  const [desk, box] = await Promise.all([net.relay("desk"), net.relay("build-box")]);
  await pair(desk, box);
  const caller = await externalCaller(desk, { title: "Lead", mentions: "Work on build-box." });
  return { net, desk, box, caller };
}

async function boxSessions(box: TestRelay): Promise<OwnerSessionDetail[]> {
  return (await box.ownerJson<{ sessions: OwnerSessionDetail[] }>("GET", "/v1/owner/sessions?scope=all"))
    .sessions;
}

/** desk's agent sends build-box's session a prompt that replies "shipped", and waits for it. */
function sendShipped(desk: TestRelay, token: string, deploy: string) {
  return call(desk, token, {
    action: "send",
    relay: "build-box",
    session: deploy,
    text: "!reply shipped",
    wait_seconds: 30,
  });
}

describe("approval cards for calls on a paired relay are raised on the caller's relay (R-UI-01, GAP-04) over HTTP", {
  timeout: 60_000,
}, () => {
  it("R-UI-01(c): in ask mode a send asks on desk first, after B's preflight; B gets the prompt only on Allow", async () => {
    const { net, desk, box, caller } = await deskAndBox();
    const deploy = await ownerSession(box, "Deploy");
    await desk.ownerJson("PATCH", `/v1/owner/sessions/${caller.id}`, { mode: "ask" });

    const pending = sendShipped(desk, caller.token, deploy);
    const card = await nextCard(desk);
    expect(card).toMatchObject({
      kind: "approval",
      reason: "write_in_mode",
      sessionId: caller.id,
      action: "send",
      targetRelay: "build-box",
      targetSession: deploy,
      status: "pending",
    });
    // B was asked to check the call, and changed nothing.
    const calls = net.toolCallsTo("build-box.test");
    expect(calls.map((c) => c.body?.origin.preflight)).toEqual([true]);
    expect(await session(box, deploy)).toMatchObject({ messages: [], turns: [] });
    expect(await pendingCards(box)).toEqual([]);

    await answerCard(desk, card, "allow");
    expect(await pending).toMatchObject({
      ok: true,
      relay: "build-box",
      status: "done",
      reply: { text: "shipped" },
    });
    const after = await session(box, deploy);
    expect(after.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(after.messages[0]?.text.endsWith("\n!reply shipped")).toBe(true);
  });

  it("GAP-04(c): Deny refuses the send with REMOTE_RELAY_PERMISSION and B is untouched", async () => {
    const { net, desk, box, caller } = await deskAndBox();
    const deploy = await ownerSession(box, "Deploy");
    await desk.ownerJson("PATCH", `/v1/owner/sessions/${caller.id}`, { mode: "plan" });
    // B's preflight refuses a session it does not have: no card is raised for it.
    expect(
      await call(desk, caller.token, { action: "send", relay: "build-box", session: "ses_nope", text: "x" }),
    ).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    expect(await pendingCards(desk)).toEqual([]);
    const pending = sendShipped(desk, caller.token, deploy);
    const card = await nextCard(desk);
    expect(card).toMatchObject({ reason: "write_in_mode", targetRelay: "build-box" });
    await answerCard(desk, card, "deny");
    const refused = await pending;
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    expect(String(refused.error)).toContain("denied");
    expect(await session(box, deploy)).toMatchObject({ messages: [], turns: [] });
    expect(net.toolCallsTo("build-box.test").map((c) => c.body?.origin.preflight)).toEqual([true, true]);
  });

  it("R-MDL-01: a first create_session on B with a model B does not list is REMOTE_RELAY_UNKNOWN_MODEL, and no card shows on desk", async () => {
    const { desk, box, caller } = await deskAndBox();
    const refused = await call(desk, caller.token, {
      action: "create_session",
      relay: "build-box",
      provider: "script",
      model: "script-9",
      text: "hi",
    });
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNKNOWN_MODEL" });
    expect(refused.models).toEqual(expect.arrayContaining(["script-1", "script-2"]));
    expect(await pendingCards(desk)).toEqual([]);
    expect(await boxSessions(box)).toEqual([]);
  });

  it("R-UI-01(a), R-UPD-09: a first create_session on B asks on desk; after Allow the session runs on B, a second one asks nothing, and its own session updates freely", async () => {
    const { desk, box, caller } = await deskAndBox();
    const create = (text: string) =>
      call(desk, caller.token, {
        action: "create_session",
        relay: "build-box",
        model: "script-2",
        title: "Worker",
        text,
        wait_seconds: 30,
      });
    const first = create("!reply hello");
    const card = await nextCard(desk);
    expect(card).toMatchObject({
      kind: "approval",
      reason: "first_create_session",
      action: "create_session",
      targetRelay: "build-box",
      targetSession: null,
      detail: [],
    });
    expect(await boxSessions(box)).toEqual([]);
    await answerCard(desk, card, "allow");
    const created = await first;
    expect(created).toMatchObject({
      ok: true,
      relay: "build-box",
      status: "done",
      model: "script-2",
      reply: { text: "hello" },
    });
    const worker = String(created.session);
    const workerDetail = await session(box, worker);
    expect(workerDetail).toMatchObject({
      title: "Worker",
      model: "script-2",
      createdBy: { relay: "desk", session: caller.id },
    });
    // R-HOP-03: its first prompt is desk's, with the header line.
    expect(workerDetail.messages[0]?.text).toBe(
      '[Remote prompt from an agent on relay "desk" · session "Lead" · external · acting for the user]\n!reply hello',
    );

    expect(await create("!reply again")).toMatchObject({ ok: true, status: "done" });
    // R-UPD-09: B recorded desk's conversation as the one that started it: no card.
    expect(
      await call(desk, caller.token, {
        action: "update_session",
        relay: "build-box",
        session: worker,
        title: "Mine",
      }),
    ).toMatchObject({ ok: true, relay: "build-box", changed: ["title"] });
    expect(await pendingCards(desk)).toEqual([]);
    expect(await session(box, worker)).toMatchObject({ title: "Mine" });
  });

  it("R-CGRP-05: create_session naming a group of B shows it on the card as Group: name (grp_…); an unknown group is refused before any card", async () => {
    const { desk, box, caller } = await deskAndBox();
    const group = await box.ownerJson<{ id: string; name: string }>("POST", "/v1/owner/groups", {
      name: "Release 2.4",
    });
    const unknown = await call(desk, caller.token, {
      action: "create_session",
      relay: "build-box",
      group: "Release 9",
      text: "hi",
    });
    expect(unknown).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNKNOWN_GROUP" });
    expect(JSON.stringify(unknown.groups)).toContain("Release 2.4");
    expect(await pendingCards(desk)).toEqual([]);

    const pending = call(desk, caller.token, {
      action: "create_session",
      relay: "build-box",
      group: "Release 2.4",
      text: "!reply grouped",
      wait_seconds: 30,
    });
    const card = await nextCard(desk);
    expect(card).toMatchObject({
      reason: "first_create_session",
      targetRelay: "build-box",
      detail: [`Group: Release 2.4 (${group.id})`],
    });
    await answerCard(desk, card, "allow");
    const created = await pending;
    expect(created).toMatchObject({ ok: true, status: "done", group: { id: group.id, name: "Release 2.4" } });
    expect(await session(box, String(created.session))).toMatchObject({ group: { id: group.id } });
  });

  it("R-UPD-10: update_session of a B session desk's conversation did not start asks once (Title: …); after Allow a second one asks nothing", async () => {
    const { desk, box, caller } = await deskAndBox();
    const first = await ownerSession(box, "First");
    const second = await ownerSession(box, "Second");
    const pending = call(desk, caller.token, {
      action: "update_session",
      relay: "build-box",
      session: first,
      title: "Renamed",
    });
    const card = await nextCard(desk);
    expect(card).toMatchObject({
      reason: "update_other_session",
      action: "update_session",
      targetRelay: "build-box",
      targetSession: first,
      detail: ["Title: Renamed"],
    });
    expect(card.kind === "approval" && card.text).toContain('"First"');
    expect(await session(box, first)).toMatchObject({ title: "First" });
    await answerCard(desk, card, "allow");
    expect(await pending).toMatchObject({
      ok: true,
      relay: "build-box",
      session: first,
      changed: ["title"],
      settings: { title: "Renamed" },
    });

    expect(
      await call(desk, caller.token, {
        action: "update_session",
        relay: "build-box",
        session: second,
        title: "Also",
      }),
    ).toMatchObject({ ok: true, changed: ["title"] });
    expect(await pendingCards(desk)).toEqual([]);
    expect((await session(box, first)).title).toBe("Renamed");
    expect((await session(box, second)).title).toBe("Also");
  });

  it("R-UPD-11: Deny on the update_other_session card is REMOTE_RELAY_PERMISSION, nothing changes on B, and the next change asks again", async () => {
    const { desk, box, caller } = await deskAndBox();
    const first = await ownerSession(box, "First");
    const update = () =>
      call(desk, caller.token, {
        action: "update_session",
        relay: "build-box",
        session: first,
        model: "script-2",
      });
    const pending = update();
    const card = await nextCard(desk);
    expect(card).toMatchObject({ reason: "update_other_session", detail: ["Model: script-2"] });
    await answerCard(desk, card, "deny");
    expect(await pending).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    expect(await session(box, first)).toMatchObject({ model: "script-1" });

    const again = update();
    const next = await nextCard(desk);
    expect(next.id).not.toBe(card.id);
    await answerCard(desk, next, "deny");
    expect(await again).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
  });

  it("R-UPD-12: in ask mode an update of another B session asks twice (update_other_session, then write_in_mode); the next one asks only the mode's card", async () => {
    const { desk, box, caller } = await deskAndBox();
    const first = await ownerSession(box, "First");
    const second = await ownerSession(box, "Second");
    await desk.ownerJson("PATCH", `/v1/owner/sessions/${caller.id}`, { mode: "ask" });
    const update = (id: string, title: string) =>
      call(desk, caller.token, { action: "update_session", relay: "build-box", session: id, title });

    const pending = update(first, "One");
    const other = await nextCard(desk);
    expect(other).toMatchObject({
      reason: "update_other_session",
      targetSession: first,
      detail: ["Title: One"],
    });
    await answerCard(desk, other, "allow");
    const mode = await eventually(async () =>
      (await pendingCards(desk)).find((card) => card.id !== other.id),
    );
    expect(mode).toMatchObject({ reason: "write_in_mode", targetRelay: "build-box", targetSession: first });
    await answerCard(desk, mode, "allow");
    expect(await pending).toMatchObject({ ok: true, changed: ["title"] });

    const next = update(second, "Two");
    const only = await nextCard(desk);
    expect(only).toMatchObject({ reason: "write_in_mode", targetSession: second });
    await answerCard(desk, only, "allow");
    expect(await next).toMatchObject({ ok: true, changed: ["title"] });
    expect((await session(box, second)).title).toBe("Two");
  });

  it("R-UPD-11: a relay-run conversation with no turn in progress gets REMOTE_RELAY_NO_ACTIVE_TURN, and no card", async () => {
    const { desk, box } = await deskAndBox();
    const first = await ownerSession(box, "First");
    const idle = await ownerSession(desk, "Idle", "Mind build-box.");
    await settled(desk, idle);
    const refused = await call(desk, await desk.agentToken(idle), {
      action: "update_session",
      relay: "build-box",
      session: first,
      title: "Renamed",
    });
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_NO_ACTIVE_TURN" });
    expect(await pendingCards(desk)).toEqual([]);
    expect((await session(box, first)).title).toBe("First");
  });

  it("R-UPD-12: B applies the rule itself: a peer call changing a session its conversation did not start, without the Allow, is refused by B", async () => {
    const net = createNetwork();
    const box = await net.relay("build-box");
    const first = await ownerSession(box, "First");
    const origin = {
      relay: "desk",
      session: "ses_lead",
      title: "Lead",
      model: "script-1",
      hops: 1,
      userUnlocked: true,
    };
    const response = await bearer(box, "POST", "/v1/peer/tool", await invite(box), {
      call: { action: "update_session", relay: "this", session: first, title: "Renamed" },
      origin,
    });
    expect(response.status).toBe(200);
    const refused = JSON.parse((await response.text()).trim());
    expect(refused).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    expect(refused.error).toContain('relay "desk"');
    expect((await session(box, first)).title).toBe("First");
  });

  it("R-UI-01(a): a script turn's create_session on B waits on desk's card, and the turn goes on after Allow", async () => {
    const { desk } = await deskAndBox();
    const lead = await ownerSession(
      desk,
      "Planner",
      [
        "Start a helper on build-box.",
        tool({ action: "create_session", relay: "build-box", text: "!reply helper up", wait_seconds: 30 }),
      ].join("\n"),
    );
    const card = await nextCard(desk);
    expect(card).toMatchObject({ reason: "first_create_session", sessionId: lead, targetRelay: "build-box" });
    await answerCard(desk, card, "allow");
    const detail = await settled(desk, lead);
    expect(toolResults(detail.messages.at(-1)?.text)).toMatchObject([
      { ok: true, relay: "build-box", status: "done", reply: { text: "helper up" } },
    ]);
  });
});
