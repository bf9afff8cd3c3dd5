import { describe, expect, it } from "vitest";
import { checkModel, suggestModels } from "../../src/actions/model-check";
import type { NewSession } from "../../src/ports/session-store";
import { createTestProvider } from "../../src/testing";
import { createHarness, refusal } from "./harness";
import { claude, claudeApi, copilot, opencode } from "./provider-fixtures";

/** A relay with Copilot and both of Claude's billings: one other family. */
const relayProviders = [copilot, claude, claudeApi].map((info) => ({ info }));

function refusalOf(run: () => unknown): { message: string; context: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    return error as { message: string; context: Record<string, unknown> };
  }
  throw new Error("expected a refusal");
}

describe("model checks (§17)", () => {
  it("R-MDL-02/03/05: the exact message, the dotted form first, suggestions and models", () => {
    const error = refusalOf(() =>
      checkModel({
        provider: copilot,
        model: "gpt-5-4",
        relayName: "build-box",
        providers: relayProviders,
        nothing: "Nothing was sent.",
      }),
    );
    expect(error.message).toBe(
      "Unknown model 'gpt-5-4' for Copilot on relay \"build-box\"; did you mean 'gpt-5.4'? Valid ids: gpt-5.4, claude-opus-5.5, gpt-4.1. Nothing was sent.",
    );
    expect(error.context).toEqual({
      suggestions: ["gpt-5.4"],
      models: ["gpt-5.4", "claude-opus-5.5", "gpt-4.1"],
    });
  });

  it("R-MDL-05: Claude's dashed id gets Copilot's dotted one", () => {
    expect(suggestModels(copilot, "claude-opus-5-5", ["gpt-5.4", "claude-opus-5.5", "gpt-4.1"])[0]).toBe(
      "claude-opus-5.5",
    );
  });

  it("R-MDL-02: no close match → no 'did you mean', empty suggestions", () => {
    const error = refusalOf(() =>
      checkModel({
        provider: copilot,
        model: "llama-70b-instruct",
        relayName: "desk",
        providers: relayProviders,
        creates: true,
        nothing: "Nothing was created.",
      }),
    );
    expect(error.message).toBe(
      "Unknown model 'llama-70b-instruct' for Copilot on relay \"desk\". Valid ids: gpt-5.4, claude-opus-5.5, gpt-4.1. Nothing was created.",
    );
    expect(error.context.suggestions).toEqual([]);
  });

  it("R-MDL-09: no list yet → unchecked, with a modelNote", () => {
    expect(
      checkModel({
        provider: { ...copilot, models: null },
        model: "claude-opus-5-5",
        relayName: "desk",
        providers: relayProviders,
        nothing: "",
      }),
    ).toEqual({
      modelNote:
        "Relay \"desk\" has no model list for Copilot yet, so the model 'claude-opus-5-5' was not checked.",
    });
  });

  it("R-MDL-01/05: send to a dotted-id provider's session suggests the dotted id over the wire", async () => {
    const dotted = createTestProvider({ info: { ...copilot } });
    const h = await createHarness({ extraProviders: [dotted] });
    const target = await h.ownerSession({ provider: "copilot", model: "gpt-5.4" });
    const result = await h.call({
      action: "send",
      relay: "this",
      session: target.id,
      text: "hi",
      model: "gpt-5-4",
    });
    expect(result).toMatchObject({ code: "REMOTE_RELAY_UNKNOWN_MODEL", suggestions: ["gpt-5.4"] });
    expect(dotted.prompts).toEqual([]);
  });
});

const COPILOT_IDS = ["gpt-5.4", "claude-opus-5.5", "gpt-4.1"];

describe("another provider's id on Copilot (R-MDL-06)", () => {
  const check = (input: { model: string; creates?: boolean; providers?: typeof relayProviders }) =>
    refusalOf(() =>
      checkModel({
        provider: copilot,
        relayName: "build-box",
        providers: relayProviders,
        nothing: input.creates === true ? "Nothing was created." : "Nothing was sent.",
        ...input,
      }),
    );

  it("R-MDL-06: outside create_session → COPILOT_MODEL_UNAVAILABLE, naming who lists it, with the closest match", () => {
    const error = check({ model: "claude-opus-5-5" });
    expect(error).toMatchObject({ code: "REMOTE_RELAY_UNKNOWN_MODEL" });
    expect(error.message).toBe(
      "Model 'claude-opus-5-5' is not available for Copilot on relay \"build-box\": 'claude-opus-5-5' is a model of Claude (subscription) and Claude (API key); Copilot's ids use dots. Did you mean 'claude-opus-5.5'? Valid ids: gpt-5.4, claude-opus-5.5, gpt-4.1. Nothing was sent.",
    );
    expect(error.context).toEqual({
      suggestions: ["claude-opus-5.5"],
      models: COPILOT_IDS,
      remoteCode: "COPILOT_MODEL_UNAVAILABLE",
    });
  });

  it("R-MDL-06: create_session, one other family lists it → that family's CLAUDE_PROVIDER_REQUIRED, naming the provider to use", () => {
    const error = check({ model: "claude-opus-5-5", creates: true });
    expect(error.message).toBe(
      "Model 'claude-opus-5-5' is not available for Copilot on relay \"build-box\": 'claude-opus-5-5' is a model of Claude (subscription) and Claude (API key); Copilot's ids use dots. Did you mean 'claude-opus-5.5'? Valid ids: gpt-5.4, claude-opus-5.5, gpt-4.1. To use 'claude-opus-5-5', create the session with provider \"claude\". Nothing was created.",
    );
    expect(error.context).toEqual({
      suggestions: ["claude-opus-5.5"],
      models: COPILOT_IDS,
      remoteCode: "CLAUDE_PROVIDER_REQUIRED",
    });
  });

  it("R-MDL-06: create_session, two families list it → COPILOT_MODEL_UNAVAILABLE, naming both", () => {
    const error = check({
      model: "claude-opus-5-5",
      creates: true,
      providers: [copilot, claude, opencode].map((info) => ({ info })),
    });
    expect(error.context.remoteCode).toBe("COPILOT_MODEL_UNAVAILABLE");
    expect(error.message).toContain("is a model of Claude (subscription) and OpenCode;");
    expect(error.message).toContain(
      'create the session with provider "claude" or "opencode". Nothing was created.',
    );
  });

  it("R-MDL-06: the provider to create with is one of the family that is configured", () => {
    const unconfigured = { ...claudeApi, notConfigured: "Claude API has no API key on this relay." };
    const error = check({
      model: "claude-opus-5-5",
      creates: true,
      providers: [copilot, unconfigured, claude].map((info) => ({ info })),
    });
    expect(error.context.remoteCode).toBe("CLAUDE_PROVIDER_REQUIRED");
    expect(error.message).toContain('create the session with provider "claude".');
  });

  it("R-MDL-06: an id with no dashed version and no close match says neither", () => {
    const error = check({ model: "sonnet" });
    expect(error.message).toBe(
      "Model 'sonnet' is not available for Copilot on relay \"build-box\": 'sonnet' is a model of Claude (subscription) and Claude (API key). Valid ids: gpt-5.4, claude-opus-5.5, gpt-4.1. Nothing was sent.",
    );
    expect(error.context).toMatchObject({ suggestions: [], remoteCode: "COPILOT_MODEL_UNAVAILABLE" });
  });

  it("R-MDL-02/06: an id no provider lists stays REMOTE_RELAY_UNKNOWN_MODEL without remoteCode", () => {
    const error = check({ model: "gpt-5-4", creates: true });
    expect(error.message).toMatch(/^Unknown model 'gpt-5-4' for Copilot/);
    expect(error.context).toEqual({ suggestions: ["gpt-5.4"], models: COPILOT_IDS });
  });

  it("R-MDL-06: a provider without dotted ids (Claude) given Copilot's id keeps REMOTE_RELAY_UNKNOWN_MODEL", () => {
    const error = refusalOf(() =>
      checkModel({
        provider: claude,
        model: "gpt-5.4",
        relayName: "desk",
        providers: relayProviders,
        creates: true,
        nothing: "Nothing was created.",
      }),
    );
    expect(error.message).toBe(
      "Unknown model 'gpt-5.4' for Claude (subscription) on relay \"desk\". Valid ids: claude-sonnet-5-5, claude-opus-5-5, sonnet. Nothing was created.",
    );
    expect(error.context).toEqual({
      suggestions: [],
      models: ["claude-sonnet-5-5", "claude-opus-5-5", "sonnet"],
    });
  });
});

/** A relay with the test provider, Copilot and Claude's two billings (and `extra`), the caller on `caller`. */
async function copilotRelay(options: { caller?: Partial<NewSession>; extra?: (typeof copilot)[] } = {}) {
  const providers = [copilot, claude, claudeApi, ...(options.extra ?? [])].map((info) =>
    createTestProvider({ info }),
  );
  const h = await createHarness({
    extraProviders: providers,
    ...(options.caller === undefined ? {} : { caller: options.caller }),
  });
  return {
    h,
    /** Every prompt any provider of the relay received. */
    prompts: () => [h.provider, ...providers].flatMap((provider) => provider.prompts),
    sessionIds: async () =>
      (await h.stores.sessions.listSessions({ scope: "all" })).map((session) => session.id),
  };
}

const CLAUDE_ID = "claude-opus-5-5";

describe("Copilot sessions refuse other providers' ids through every caller (R-MDL-06, R-MDL-07)", () => {
  it("R-MDL-06/07: send → COPILOT_MODEL_UNAVAILABLE; the session keeps its provider and model, nothing is sent", async () => {
    const { h, prompts } = await copilotRelay();
    const target = await h.ownerSession({ provider: "copilot", model: "gpt-5.4" });
    const result = await h.call({
      action: "send",
      relay: "this",
      session: target.id,
      text: "hi",
      model: CLAUDE_ID,
    });
    expect(refusal(result).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(result).toMatchObject({
      remoteCode: "COPILOT_MODEL_UNAVAILABLE",
      suggestions: ["claude-opus-5.5"],
      models: COPILOT_IDS,
      error: expect.stringMatching(
        /is a model of Claude \(subscription\) and Claude \(API key\);.* Nothing was sent\.$/,
      ),
    });
    expect(await h.session(target.id)).toMatchObject({ provider: "copilot", model: "gpt-5.4" });
    expect(await h.stores.sessions.listMessages(target.id)).toEqual([]);
    expect(prompts()).toEqual([]);
  });

  it("R-MDL-06/07, R-MDL-11: update_session → COPILOT_MODEL_UNAVAILABLE; nothing of the call is changed", async () => {
    const { h } = await copilotRelay();
    const target = await h.agentSession({ provider: "copilot", model: "gpt-5.4", title: "Review" });
    const result = await h.call({
      action: "update_session",
      relay: "this",
      session: target.id,
      model: CLAUDE_ID,
      title: "Renamed",
    });
    expect(refusal(result).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(result).toMatchObject({
      remoteCode: "COPILOT_MODEL_UNAVAILABLE",
      suggestions: ["claude-opus-5.5"],
      error: expect.stringMatching(/ Nothing was changed\.$/),
    });
    expect(await h.session(target.id)).toMatchObject({
      provider: "copilot",
      model: "gpt-5.4",
      title: "Review",
    });
  });

  it('R-MDL-06/07: create_session on Copilot with a Claude id → CLAUDE_PROVIDER_REQUIRED and no session; provider "claude" then takes it', async () => {
    const { h, prompts, sessionIds } = await copilotRelay();
    const before = await sessionIds();
    const create = { action: "create_session", relay: "this", text: "hi", model: CLAUDE_ID, wait_seconds: 0 };
    const result = await h.call({ ...create, provider: "copilot" });
    expect(refusal(result).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(result).toMatchObject({
      remoteCode: "CLAUDE_PROVIDER_REQUIRED",
      suggestions: ["claude-opus-5.5"],
      models: COPILOT_IDS,
      error: expect.stringContaining(
        `To use '${CLAUDE_ID}', create the session with provider "claude". Nothing was created.`,
      ),
    });
    expect(await sessionIds()).toEqual(before);
    expect(prompts()).toEqual([]);
    expect(await h.ok({ ...create, provider: "claude" })).toMatchObject({
      provider: "claude",
      model: CLAUDE_ID,
    });
  });

  it("R-MDL-07: a Copilot conversation's create_session without provider stays on Copilot and is refused, not moved to Claude", async () => {
    const { h, sessionIds } = await copilotRelay({ caller: { provider: "copilot", model: "gpt-5.4" } });
    const before = await sessionIds();
    const result = await h.call({ action: "create_session", relay: "this", text: "hi", model: CLAUDE_ID });
    expect(refusal(result).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(result).toMatchObject({ remoteCode: "CLAUDE_PROVIDER_REQUIRED" });
    expect(await sessionIds()).toEqual(before);
  });

  it("R-MDL-06: create_session with an id two other families list → COPILOT_MODEL_UNAVAILABLE", async () => {
    const { h, sessionIds } = await copilotRelay({ extra: [opencode] });
    const before = await sessionIds();
    const result = await h.call({
      action: "create_session",
      relay: "this",
      provider: "copilot",
      text: "hi",
      model: CLAUDE_ID,
    });
    expect(refusal(result).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(result).toMatchObject({
      remoteCode: "COPILOT_MODEL_UNAVAILABLE",
      error: expect.stringContaining('with provider "claude" or "opencode"'),
    });
    expect(await sessionIds()).toEqual(before);
  });

  it("R-MDL-06/07: the owner API refuses the same way — creating (CLAUDE_PROVIDER_REQUIRED) and changing (COPILOT_MODEL_UNAVAILABLE) — and changes nothing", async () => {
    const { h, prompts, sessionIds } = await copilotRelay();
    const target = await h.ownerSession({ provider: "copilot", model: "gpt-5.4", title: "Review" });
    const before = await sessionIds();
    await expect(
      h.engine.owner.createSession({ provider: "copilot", model: CLAUDE_ID, text: "hi" }),
    ).rejects.toMatchObject({
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      message: expect.stringContaining('create the session with provider "claude". Nothing was created.'),
      context: {
        remoteCode: "CLAUDE_PROVIDER_REQUIRED",
        suggestions: ["claude-opus-5.5"],
        models: COPILOT_IDS,
      },
    });
    expect(await sessionIds()).toEqual(before);
    await expect(
      h.engine.owner.patchSession(target.id, { model: CLAUDE_ID, title: "Renamed" }),
    ).rejects.toMatchObject({
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      message: expect.stringMatching(/ Nothing was changed\.$/),
      context: { remoteCode: "COPILOT_MODEL_UNAVAILABLE" },
    });
    expect(await h.session(target.id)).toMatchObject({
      provider: "copilot",
      model: "gpt-5.4",
      title: "Review",
    });
    expect(prompts()).toEqual([]);
  });

  it("R-MDL-02/06: a Claude session given Copilot's id keeps REMOTE_RELAY_UNKNOWN_MODEL, without remoteCode", async () => {
    const { h } = await copilotRelay();
    const target = await h.ownerSession({ provider: "claude", model: CLAUDE_ID });
    const result = await h.call({
      action: "send",
      relay: "this",
      session: target.id,
      text: "hi",
      model: "gpt-5.4",
    });
    expect(refusal(result)).toEqual({
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error:
        "Unknown model 'gpt-5.4' for Claude (subscription) on relay \"desk\". Valid ids: claude-sonnet-5-5, claude-opus-5-5, sonnet. Nothing was sent.",
    });
    expect(result).not.toHaveProperty("remoteCode");
    expect(await h.session(target.id)).toMatchObject({ provider: "claude", model: CLAUDE_ID });
  });
});
