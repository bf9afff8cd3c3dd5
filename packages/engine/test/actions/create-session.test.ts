import { CreateSessionResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createTestProvider } from "../../src/testing";
import { createHarness, refusal } from "./harness";

describe("create_session (§15)", () => {
  it("R-CRE-01/08/09: starts a session with its first prompt; the result says what it started with", async () => {
    const h = await createHarness();
    const result = CreateSessionResultSchema.parse(
      await h.ok({
        action: "create_session",
        relay: "this",
        title: "Review: server/",
        text: "Review server/.",
      }),
    );
    expect(result).toEqual({
      ok: true,
      relay: "desk",
      summary: expect.stringMatching(/^create_session → desk session \w{8}: done$/),
      status: "done",
      session: expect.stringMatching(/^ses_/),
      message_id: expect.stringMatching(/^msg_/),
      reply: { text: "echo: Review server/.", model: "test-1" },
      provider: "test",
      model: "test-1",
      mode: "agent",
      effort: null,
      title: "Review: server/",
      group: { id: expect.stringMatching(/^grp_/), name: "Planner", role: "member" },
    });
  });

  it("R-CRE-03: what the call omits follows the caller's session (provider, model, effort, mode, cwd)", async () => {
    const h = await createHarness({
      caller: { model: "test-2", effort: "high", mode: "plan", cwd: "/srv/app" },
    });
    const result = await h.ok({ action: "create_session", relay: "this", text: "First line\nsecond line" });
    expect(result).toMatchObject({
      provider: "test",
      model: "test-2",
      effort: "high",
      mode: "plan",
      title: "First line",
    });
    expect(await h.session(result.session as string)).toMatchObject({
      cwd: "/srv/app",
      model: "test-2",
      mode: "plan",
    });
  });

  it("R-CRE-03: as far as the relay offers it — else the provider's defaults and the first allowed folder", async () => {
    const other = createTestProvider({
      info: { id: "other", label: "Other", models: [{ id: "o-1", default: true }], efforts: [] },
    });
    const h = await createHarness({
      extraProviders: [other],
      allowedRoots: ["/srv"],
      caller: { effort: "high", cwd: "/home/me" },
    });
    const result = await h.ok({ action: "create_session", relay: "this", text: "hi", provider: "other" });
    expect(result).toMatchObject({ provider: "other", model: "o-1", effort: null });
    expect((await h.session(result.session as string)).cwd).toBe("/srv");
  });

  it("R-CRE-03: explicit arguments win", async () => {
    const h = await createHarness({ allowedRoots: ["/srv"] });
    const result = await h.ok({
      action: "create_session",
      relay: "this",
      text: "hi",
      model: "test-2",
      effort: "low",
      mode: "ask",
      cwd: "/srv/api/../web",
    });
    expect(result).toMatchObject({ model: "test-2", effort: "low", mode: "ask" });
    expect((await h.session(result.session as string)).cwd).toBe("/srv/web");
  });

  it("R-UI-03: the new session carries the via-agent badge and who started it", async () => {
    const h = await createHarness();
    const result = await h.ok({ action: "create_session", relay: "this", text: "hi" });
    expect(await h.session(result.session as string)).toMatchObject({
      viaAgent: "Planner",
      createdBy: { relay: null, session: h.caller.id },
      mayCreateSessions: false,
    });
  });

  it("R-UI-05: its first prompt carries the sender's provenance", async () => {
    const h = await createHarness();
    const result = await h.ok({ action: "create_session", relay: "this", text: "hi" });
    const [prompt] = await h.stores.sessions.listMessages(result.session as string);
    expect(prompt?.provenance).toMatchObject({ session: h.caller.id, title: "Planner" });
  });

  it("R-CRE-04, R-MDL-02: an unknown model is refused and nothing is created", async () => {
    const h = await createHarness();
    const result = await h.call({ action: "create_session", relay: "this", text: "hi", model: "tset-2" });
    expect(result).toMatchObject({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error:
        "Unknown model 'tset-2' for Test provider on relay \"desk\"; did you mean 'test-2'? Valid ids: test-1, test-2. Nothing was created.",
      suggestions: ["test-2"],
      models: ["test-1", "test-2"],
    });
    expect(await h.stores.sessions.listSessions()).toHaveLength(1);
    expect((await h.stores.groups.listGroups({ includeEmpty: true })).total).toBe(0);
  });

  it("R-MDL-09: a provider without a model list lets the model pass, with a modelNote", async () => {
    const open = createTestProvider({ info: { id: "open", label: "Open", models: null } });
    const h = await createHarness({ extraProviders: [open] });
    const result = await h.ok({
      action: "create_session",
      relay: "this",
      text: "hi",
      provider: "open",
      model: "anything",
    });
    expect(result).toMatchObject({
      model: "anything",
      modelNote: expect.stringContaining("'anything' was not checked"),
    });
  });

  it("an unknown provider is REMOTE_RELAY_PROVIDER_UNAVAILABLE; one driven from outside is INVALID_INPUT", async () => {
    const external = createTestProvider({
      info: { id: "external", label: "External", drivenFromOutside: true },
    });
    const h = await createHarness({ extraProviders: [external] });
    expect(
      refusal(await h.call({ action: "create_session", relay: "this", text: "hi", provider: "grok" })),
    ).toEqual({
      code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      error: 'Relay "desk" has no provider "grok". Its providers: test. Nothing was created.',
    });
    const outside = refusal(
      await h.call({ action: "create_session", relay: "this", text: "hi", provider: "external" }),
    );
    expect(outside.code).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(await h.stores.sessions.listSessions()).toHaveLength(1);
  });

  it("R-UPD-21, DESIGN §7: a folder outside the allowed roots is refused and nothing is created", async () => {
    const h = await createHarness({ allowedRoots: ["/srv"] });
    expect(
      refusal(await h.call({ action: "create_session", relay: "this", text: "hi", cwd: "/srv/../etc" })),
    ).toEqual({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error:
        'cwd "/srv/../etc" (it resolves to "/etc") is a folder relay "desk" may not use. The folder must be one that the relay is allowed to use: /srv, or a folder below it. Nothing was created.',
    });
    expect(
      refusal(await h.call({ action: "create_session", relay: "this", text: "hi", cwd: "work" })).code,
    ).toBe("REMOTE_RELAY_INVALID_INPUT");
    expect(await h.stores.sessions.listSessions()).toHaveLength(1);
  });

  it("R-WST-07: wait_seconds 0 returns at once with the turn queued or running", async () => {
    const h = await createHarness();
    const result = await h.ok({ action: "create_session", relay: "this", text: "hold", wait_seconds: 0 });
    expect(["queued", "running"]).toContain(result.status);
    expect(result).not.toHaveProperty("reply");
  });
});
