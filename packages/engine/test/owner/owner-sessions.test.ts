import { describe, expect, it } from "vitest";
import { createTestProvider } from "../../src/testing";
import { outsideProvider, ownerHarness, refusal, settle } from "./harness";

describe("owner API: creating sessions (DESIGN §4 POST /sessions)", () => {
  it("starts on the test provider's default model in agent mode when nothing is named", async () => {
    const { owner } = await ownerHarness();
    const session = await owner.createSession({});
    expect(session).toMatchObject({
      provider: "test",
      model: "test-1",
      mode: "agent",
      title: "New session",
      cwd: null,
      createdBy: null,
      viaAgentBadge: null,
      watched: false,
      watching: 0,
      messages: [],
      turns: [],
      inFlight: null,
      pendingQuestions: [],
      tasks: [],
    });
    expect((await owner.listSessions()).map((s) => s.id)).toEqual([session.id]);
  });

  it("prefers the script provider when the relay has it, wherever it is listed", async () => {
    const script = createTestProvider({
      info: {
        id: "script",
        label: "Script",
        models: [{ id: "script-1", default: true }, { id: "script-2" }],
      },
    });
    const { owner } = await ownerHarness({ extraProviders: [script] });
    expect(await owner.createSession({})).toMatchObject({ provider: "script", model: "script-1" });
    expect(await owner.createSession({ provider: "test", model: "test-2" })).toMatchObject({
      provider: "test",
      model: "test-2",
    });
  });

  it("makes `text` the first user message and runs its turn", async () => {
    const { owner, turnEnd } = await ownerHarness();
    const created = await owner.createSession({ text: "hello there", title: "Greeter", mode: "plan" });
    expect(created.title).toBe("Greeter");
    expect(created.mode).toBe("plan");
    expect(created.messages.map((m) => [m.role, m.text])).toEqual([["user", "hello there"]]);
    const [turn] = created.turns;
    expect(turn?.origin.kind).toBe("owner");
    await turnEnd(turn?.id ?? "");
    await settle();
    const after = await owner.getSession(created.id);
    expect(after.messages.map((m) => [m.role, m.text])).toEqual([
      ["user", "hello there"],
      ["assistant", "echo: hello there"],
    ]);
    expect(after.turns.map((t) => t.status)).toEqual(["done"]);
    expect(after.messageCount).toBe(2);
  });

  it("names an untitled session after the first line of its text", async () => {
    const { owner } = await ownerHarness();
    const created = await owner.createSession({ text: "\n  Review the parser  \nthen report" });
    expect(created.title).toBe("Review the parser");
    const long = await owner.createSession({ text: "x".repeat(100) });
    expect(long.title).toBe(`${"x".repeat(59)}…`);
  });

  it("R-MDL-02/03: refuses an unknown model with suggestions and the valid ids, creating nothing", async () => {
    const { owner } = await ownerHarness();
    const error = await refusal(
      owner.createSession({ model: "test-3", text: "hi" }),
      "REMOTE_RELAY_UNKNOWN_MODEL",
    );
    expect(error.message).toBe(
      `Unknown model 'test-3' for Test provider on relay "desk"; did you mean 'test-1'? Valid ids: test-1, test-2. Nothing was created.`,
    );
    expect(error.context).toMatchObject({ suggestions: ["test-1", "test-2"], models: ["test-1", "test-2"] });
    expect(await owner.listSessions({ scope: "all" })).toEqual([]);
  });

  it("refuses a provider the relay does not offer, creating nothing", async () => {
    const { owner } = await ownerHarness();
    const error = await refusal(
      owner.createSession({ provider: "nope" }),
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
    );
    expect(error.message).toContain("Providers: test");
    expect(await owner.listSessions({ scope: "all" })).toEqual([]);
  });

  it("DESIGN §7: keeps cwd under the allowed roots, defaulting to the first", async () => {
    const { owner } = await ownerHarness({ allowedRoots: ["/home/dev/projects", "/srv/work"] });
    expect((await owner.createSession({})).cwd).toBe("/home/dev/projects");
    expect((await owner.createSession({ cwd: "/srv/work/shop/./server/" })).cwd).toBe(
      "/srv/work/shop/server",
    );
    const outside = await refusal(
      owner.createSession({ cwd: "/srv/work/../etc" }),
      "REMOTE_RELAY_INVALID_INPUT",
    );
    expect(outside.message).toContain("/home/dev/projects, /srv/work");
    await refusal(owner.createSession({ cwd: "relative/path" }), "REMOTE_RELAY_INVALID_INPUT");
    expect(await owner.listSessions()).toHaveLength(2);
  });

  it("R-CGRP-03: places the session into a group named by id or by name in any case", async () => {
    const { owner } = await ownerHarness();
    const group = await owner.createGroup({ name: "Release 2.4" });
    const byName = await owner.createSession({ group: "release 2.4" });
    const byId = await owner.createSession({ group: group.id });
    expect(byName.group).toEqual({ id: group.id, role: "member" });
    expect(byId.group).toEqual({ id: group.id, role: "member" });
  });

  it("R-CGRP-07: an unknown or ambiguous group is REMOTE_RELAY_UNKNOWN_GROUP listing the groups; nothing is created", async () => {
    const { owner } = await ownerHarness();
    const first = await owner.createGroup({ name: "Release" });
    const second = await owner.createGroup({ name: "release" });
    const unknown = await refusal(owner.createSession({ group: "Relase" }), "REMOTE_RELAY_UNKNOWN_GROUP");
    expect(unknown.message).toMatch(
      /^Relay "desk" has no session group "Relase"\. Groups there: .*No session was created\.$/,
    );
    expect(unknown.context.groups).toEqual(
      expect.arrayContaining([
        { id: first.id, name: "Release", memberCount: 0 },
        { id: second.id, name: "release", memberCount: 0 },
      ]),
    );
    const ambiguous = await refusal(owner.createSession({ group: "RELEASE" }), "REMOTE_RELAY_UNKNOWN_GROUP");
    expect(ambiguous.message).toMatch(/has 2 session groups named "RELEASE".*Pass the id\.$/);
    expect(await owner.listSessions({ scope: "all" })).toEqual([]);
  });
  it("R-CGRP-07: lists at most 20 groups in the refusal, with groupsTotal", async () => {
    const { owner } = await ownerHarness();
    for (let i = 1; i <= 22; i++) {
      await owner.createGroup({ name: `Group ${i}` });
    }
    const error = await refusal(owner.createSession({ group: "Group 99" }), "REMOTE_RELAY_UNKNOWN_GROUP");
    expect(error.context.groups).toHaveLength(20);
    expect(error.context.groupsTotal).toBe(22);
    expect(error.message).toMatch(/, and 2 more\. No session was created\.$/);
  });
});

describe("owner API: reading sessions (DESIGN §4 GET /sessions)", () => {
  it("lists by scope and refuses an unknown id with REMOTE_RELAY_NOT_FOUND", async () => {
    const { owner } = await ownerHarness();
    const kept = await owner.createSession({ title: "kept" });
    const archived = await owner.createSession({ title: "archived" });
    await owner.archiveSession(archived.id);
    expect((await owner.listSessions()).map((s) => s.title)).toEqual(["kept"]);
    expect((await owner.listSessions({ scope: "archived" })).map((s) => s.title)).toEqual(["archived"]);
    expect((await owner.listSessions({ scope: "all" })).map((s) => s.id).sort()).toEqual(
      [kept.id, archived.id].sort(),
    );
    const error = await refusal(owner.getSession("ses_missing"), "REMOTE_RELAY_NOT_FOUND");
    expect(error.message).toBe("No session ses_missing on this relay.");
  });

  it("R-UI-03: shows the via-agent badge of a session an agent started", async () => {
    const { owner, stores, clock } = await ownerHarness();
    const lead = await owner.createSession({ title: "Lead" });
    const started = await stores.sessions.createSession({
      id: "ses_started",
      title: "Worker",
      provider: "test",
      model: "test-1",
      createdBy: { relay: null, session: lead.id },
      viaAgent: "Lead",
      createdAt: clock.now(),
    });
    expect((await owner.getSession(started.id)).viaAgentBadge).toBe('via agent · "Lead"');
    const listed = await owner.listSessions();
    expect(listed.find((s) => s.id === started.id)).toMatchObject({
      viaAgentBadge: 'via agent · "Lead"',
      watched: false,
    });
  });

  it("shows the reply being written (inFlight) and the turn still running", async () => {
    const { owner, provider } = await ownerHarness();
    provider.hold();
    const created = await owner.createSession({ text: "work" });
    const turn = await provider.nextTurn();
    turn.write("half way");
    const detail = await owner.getSession(created.id);
    expect(detail.inFlight).toEqual({ turnId: created.turns[0]?.id, text: "half way" });
    expect(detail.turns.map((t) => t.status)).toEqual(["running"]);
    turn.finish("all done");
    await settle();
    expect((await owner.getSession(created.id)).inFlight).toBeNull();
  });

  it("R-RSES-02: lists the blocking question a turn waits on", async () => {
    const { owner } = await ownerHarness();
    const created = await owner.createSession({ text: "ask: Merge now? | Yes | No" });
    await settle();
    const detail = await owner.getSession(created.id);
    expect(detail.pendingQuestions).toEqual([
      expect.objectContaining({ kind: "ask_user", text: "Merge now?", options: ["Yes", "No"] }),
    ]);
  });
});

describe("owner API: changing sessions (DESIGN §4 PATCH /sessions/:id)", () => {
  it("R-LOCAL-05: sets title, mode and the owner's mayCreateSessions switch", async () => {
    const { owner } = await ownerHarness();
    const created = await owner.createSession({});
    const patched = await owner.patchSession(created.id, {
      title: "Renamed",
      mode: "ask",
      mayCreateSessions: true,
    });
    expect(patched).toMatchObject({ title: "Renamed", mode: "ask", mayCreateSessions: true });
    expect((await owner.patchSession(created.id, { mayCreateSessions: false })).mayCreateSessions).toBe(
      false,
    );
  });

  it("R-MDL-11: checks model and effort against the provider before changing anything", async () => {
    const { owner } = await ownerHarness();
    const created = await owner.createSession({});
    expect(await owner.patchSession(created.id, { model: "test-2", effort: "high" })).toMatchObject({
      model: "test-2",
      effort: "high",
    });
    const model = await refusal(
      owner.patchSession(created.id, { title: "not applied", model: "test-9" }),
      "REMOTE_RELAY_UNKNOWN_MODEL",
    );
    expect(model.message).toMatch(/Nothing was changed\.$/);
    const effort = await refusal(
      owner.patchSession(created.id, { effort: "max" }),
      "REMOTE_RELAY_INVALID_INPUT",
    );
    expect(effort.message).toContain("low, high");
    expect(await owner.getSession(created.id)).toMatchObject({
      title: "New session",
      model: "test-2",
      effort: "high",
    });
  });

  it("moves the session between groups, and group null takes it out", async () => {
    const { owner } = await ownerHarness();
    const group = await owner.createGroup({ name: "Docs" });
    const created = await owner.createSession({});
    expect((await owner.patchSession(created.id, { group: "docs" })).group).toEqual({
      id: group.id,
      role: "member",
    });
    expect((await owner.patchSession(created.id, { group: null })).group).toBeNull();
    await refusal(owner.patchSession(created.id, { group: "nowhere" }), "REMOTE_RELAY_UNKNOWN_GROUP");
    await refusal(owner.patchSession("ses_missing", { title: "x" }), "REMOTE_RELAY_NOT_FOUND");
  });

  it("R-UPD-20: refuses a new folder while a turn is running, and restarts the worker after a move", async () => {
    const { owner, provider } = await ownerHarness({ allowedRoots: ["/srv/repos"] });
    provider.hold();
    const created = await owner.createSession({ text: "hold" });
    const turn = await provider.nextTurn();
    const busy = await refusal(
      owner.patchSession(created.id, { cwd: "/srv/repos/other" }),
      "REMOTE_RELAY_BUSY",
    );
    expect(busy.message).toMatch(/^The session cannot move to another folder now: /);
    await refusal(owner.patchSession(created.id, { cwd: "/elsewhere" }), "REMOTE_RELAY_INVALID_INPUT");
    turn.finish();
    await settle();
    expect((await owner.patchSession(created.id, { cwd: "/srv/repos/other" })).cwd).toBe("/srv/repos/other");
    expect(provider.workersClosed).toContain(created.id);
  });
});

describe("owner API: messages, archive, kill, delete (DESIGN §4)", () => {
  it("a user message starts a turn; an archived conversation comes back when the owner writes in it", async () => {
    const { owner, turnEnd } = await ownerHarness();
    const created = await owner.createSession({});
    await owner.archiveSession(created.id);
    const { message, turn } = await owner.postMessage(created.id, "again");
    expect(message).toMatchObject({ role: "user", text: "again", sessionId: created.id });
    expect(turn).toMatchObject({
      sessionId: created.id,
      promptMessageId: message.id,
      origin: { kind: "owner" },
    });
    expect((await turnEnd(turn?.id ?? "")).text).toBe("echo: again");
    expect((await owner.getSession(created.id)).archivedAt).toBeNull();
    await refusal(owner.postMessage("ses_missing", "hi"), "REMOTE_RELAY_NOT_FOUND");
  });

  it("DESIGN §5: a session driven from outside gets the message without a turn", async () => {
    const { owner } = await ownerHarness({ extraProviders: [outsideProvider()] });
    const created = await owner.createSession({ provider: "outside", text: "for the outside agent" });
    expect(created.model).toBe("default");
    expect(created.messages.map((m) => m.text)).toEqual(["for the outside agent"]);
    expect(created.turns).toEqual([]);
    const { turn } = await owner.postMessage(created.id, "more");
    expect(turn).toBeNull();
  });

  it("archive keeps the session readable; unknown ids are REMOTE_RELAY_NOT_FOUND", async () => {
    const { owner, clock } = await ownerHarness();
    const created = await owner.createSession({});
    expect((await owner.archiveSession(created.id)).archivedAt).toBe(clock.now());
    expect((await owner.getSession(created.id)).archivedAt).toBe(clock.now());
    await refusal(owner.archiveSession("ses_missing"), "REMOTE_RELAY_NOT_FOUND");
    await refusal(owner.killSession("ses_missing"), "REMOTE_RELAY_NOT_FOUND");
    await refusal(owner.deleteSession("ses_missing"), "REMOTE_RELAY_NOT_FOUND");
  });

  it("R-NAME-04: Kill session stops the running turn and the next turn gets a new worker", async () => {
    const { owner, provider, turnEnd } = await ownerHarness();
    provider.hold();
    const created = await owner.createSession({ text: "long job" });
    await provider.nextTurn();
    await owner.killSession(created.id);
    const [turn] = (await owner.getSession(created.id)).turns;
    expect(turn?.status).toBe("stopped");
    provider.hold(false);
    const { turn: next } = await owner.postMessage(created.id, "again");
    expect((await turnEnd(next?.id ?? "")).status).toBe("done");
    expect(provider.workersStarted.filter((id) => id === created.id)).toHaveLength(2);
  });

  it("delete: the session is gone, its queued turns never run, its running turn stops", async () => {
    const { owner, provider, stores } = await ownerHarness();
    provider.hold();
    const created = await owner.createSession({ text: "first" });
    await provider.nextTurn();
    const { turn: queued } = await owner.postMessage(created.id, "second");
    await owner.deleteSession(created.id);
    await refusal(owner.getSession(created.id), "REMOTE_RELAY_NOT_FOUND");
    expect(await owner.listSessions({ scope: "all" })).toEqual([]);
    expect((await stores.sessions.getTurn(queued?.id ?? ""))?.status).toBe("stopped");
    expect(await stores.sessions.listActiveTurns({ sessionId: created.id })).toEqual([]);
    expect(provider.prompts.map((p) => p.prompt)).toEqual(["first"]);
  });

  it("R-UPD-18: deleting the last session of an agent-created group removes the group", async () => {
    const { owner, stores, clock } = await ownerHarness();
    const created = await owner.createSession({});
    const group = await stores.groups.createGroup({
      id: "grp_agent",
      createdByAgent: true,
      headSessionId: created.id,
      createdAt: clock.now(),
    });
    await stores.groups.setSessionGroup({
      sessionId: created.id,
      groupId: group.id,
      role: "head",
      at: clock.now(),
    });
    await owner.deleteSession(created.id);
    expect(await stores.groups.getGroup(group.id)).toBeNull();
  });
});
