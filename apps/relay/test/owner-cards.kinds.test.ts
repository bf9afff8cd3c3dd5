import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OwnerCard, OwnerSessionDetail } from "@oar/engine";
import { afterAll, describe, expect, it } from "vitest";
import { createTestRelay, eventually, type TestRelay } from "./harness";

type ToolResult = Record<string, unknown>;

const dataDirs: string[] = [];
afterAll(() => Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function parse(response: Response): Promise<ToolResult> {
  return JSON.parse((await response.text()).trim()) as ToolResult;
}

/** An external session (always in a turn, GAP-04) and its agent token. */
async function externalCaller(t: TestRelay): Promise<{ id: string; token: string }> {
  const caller = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
    provider: "external",
  });
  return { id: caller.id, token: await t.agentToken(caller.id) };
}

/** A script session the owner started. */
async function ownerSession(t: TestRelay, title: string): Promise<string> {
  const session = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
    provider: "script",
    title,
  });
  return session.id;
}

async function pendingCards(t: TestRelay): Promise<OwnerCard[]> {
  return (await t.ownerJson<{ cards: OwnerCard[] }>("GET", "/v1/owner/cards?status=pending")).cards;
}

/** The first pending card, once one shows. */
function nextCard(t: TestRelay): Promise<OwnerCard> {
  return eventually(async () => (await pendingCards(t))[0]);
}

describe("approval cards of each kind over HTTP (R-UI-01, GAP-04)", { timeout: 30_000 }, () => {
  it("R-UI-01(a): the first create_session asks once; the second does not", async () => {
    const t = await createTestRelay();
    const caller = await externalCaller(t);
    const create = (text: string) =>
      t
        .tool(caller.token, {
          action: "create_session",
          relay: "this",
          provider: "script",
          text,
          wait_seconds: 0,
        })
        .then(parse);
    const first = create("hi");
    const card = await nextCard(t);
    expect(card).toMatchObject({
      kind: "approval",
      reason: "first_create_session",
      action: "create_session",
      targetRelay: "desk",
      status: "pending",
    });
    await t.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
    const done = await first;
    expect(done).toMatchObject({ ok: true });
    // wait_seconds 0: the turn may not have started, may run, or may be done already.
    expect(["queued", "running", "done"]).toContain(done.status);

    const second = await create("again");
    expect(second).toMatchObject({ ok: true });
    expect(await pendingCards(t)).toEqual([]);
  });

  it("GAP-04(c): in ask mode a send asks; deny refuses it and the target gets no prompt", async () => {
    const t = await createTestRelay();
    const caller = await externalCaller(t);
    const target = await ownerSession(t, "Target");
    await t.ownerJson("PATCH", `/v1/owner/sessions/${caller.id}`, { mode: "ask" });
    const before = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${target}`);

    const call = t
      .tool(caller.token, {
        action: "send",
        relay: "this",
        session: target,
        text: "!reply no",
        wait_seconds: 0,
      })
      .then(parse);
    const card = await nextCard(t);
    expect(card).toMatchObject({
      kind: "approval",
      reason: "write_in_mode",
      action: "send",
      targetRelay: "desk",
      targetSession: target,
    });
    await t.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "deny" });
    expect(await call).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    const after = await t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${target}`);
    expect(after.messages).toEqual(before.messages);
    expect(after.turns).toEqual(before.turns);
  });

  it("R-UPD-10/11: update_session of an owner-started session asks once per conversation and relay", async () => {
    const t = await createTestRelay();
    const caller = await externalCaller(t);
    const first = await ownerSession(t, "First");
    const second = await ownerSession(t, "Second");

    const call = t
      .tool(caller.token, {
        action: "update_session",
        relay: "this",
        session: first,
        mode: "plan",
        title: "Renamed",
        group: "Crew",
      })
      .then(parse);
    const card = await nextCard(t);
    expect(card).toMatchObject({
      reason: "update_other_session",
      action: "update_session",
      targetRelay: "desk",
      targetSession: first,
      detail: ["Mode: plan · Title: Renamed · Group: Crew (new)"],
    });
    await t.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
    expect(await call).toMatchObject({
      ok: true,
      session: first,
      changed: ["mode", "title", "group"],
      settings: { mode: "plan", title: "Renamed", group: { name: "Crew" } },
    });

    const again = await parse(
      await t.tool(caller.token, { action: "update_session", relay: "this", session: second, title: "Also" }),
    );
    expect(again).toMatchObject({ ok: true, session: second, changed: ["title"] });
    expect(await pendingCards(t)).toEqual([]);
  });

  it("GAP-04(f): the 31st prompt since the owner wrote asks; an owner message resets the count", async () => {
    const t = await createTestRelay();
    const caller = await externalCaller(t);
    const target = await ownerSession(t, "Echo");
    const send = () =>
      t
        .tool(caller.token, {
          action: "send",
          relay: "this",
          session: target,
          text: "!reply x",
          wait_seconds: 0,
        })
        .then(parse);
    for (let i = 0; i < 30; i++) {
      expect(await send()).toMatchObject({ ok: true });
    }
    expect(await pendingCards(t)).toEqual([]);
    const call = send();
    const card = await nextCard(t);
    expect(card).toMatchObject({ reason: "anti_loop", action: "send", targetSession: target });
    await t.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "deny" });
    expect(await call).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });

    await t.ownerJson("POST", `/v1/owner/sessions/${caller.id}/messages`, { text: "carry on" });
    for (let i = 0; i < 3; i++) {
      expect(await send()).toMatchObject({ ok: true });
    }
    expect(await pendingCards(t)).toEqual([]);
  });

  it("a pending card survives a restart over the same data directory", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "oar-cards-"));
    dataDirs.push(dataDir);
    const first = await createTestRelay({ dataDir, keepOpen: true });
    const caller = await externalCaller(first);
    const waiting = first
      .tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "script",
        text: "hi",
        wait_seconds: 0,
      })
      .then(parse)
      .catch((error: unknown) => ({ error }));
    const card = await nextCard(first);
    await first.relay.close();
    // The waiting call cannot outlive its relay: it ends without running (today: REMOTE_RELAY_INTERNAL).
    expect(await waiting).not.toMatchObject({ ok: true });

    const second = await createTestRelay({ dataDir });
    expect(await pendingCards(second)).toEqual([card]);
  });
});
