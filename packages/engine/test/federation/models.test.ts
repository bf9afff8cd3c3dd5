import { describe, expect, it } from "vitest";
import { createTestProvider } from "../../src/testing";
import { refusal } from "../actions/harness";
import { claude, copilot } from "../actions/provider-fixtures";
import { createFederation, relayOf } from "./harness";

describe("model checks for another relay's agent (§17)", () => {
  it("R-MDL-10, R-MDL-06: a session started from a paired relay on Copilot is refused there with that relay's code, and none is created", async () => {
    const fed = await createFederation(["desk", "build-box"], {
      providers: { "build-box": [copilot, claude].map((info) => createTestProvider({ info })) },
    });
    const desk = relayOf(fed, "desk");
    const box = relayOf(fed, "build-box");
    await desk.pair(box);
    await desk.write("work on build-box");
    await desk.inTurn();
    const sessionIds = async () =>
      (await box.stores.sessions.listSessions({ scope: "all" })).map((session) => session.id);
    const before = await sessionIds();
    const create = (model: string) =>
      desk.call({
        action: "create_session",
        relay: "build-box",
        provider: "copilot",
        model,
        text: "hi",
        wait_seconds: 0,
      });

    const claudeId = await create("claude-opus-5-5");
    expect(refusal(claudeId).code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(claudeId).toMatchObject({
      remoteCode: "CLAUDE_PROVIDER_REQUIRED",
      suggestions: ["claude-opus-5.5"],
      models: ["gpt-5.4", "claude-opus-5.5", "gpt-4.1"],
      error: expect.stringMatching(
        /^Model 'claude-opus-5-5' is not available for Copilot on relay "build-box": .* with provider "claude"\. Nothing was created\.$/,
      ),
    });

    const unknown = await create("gpt-5-4");
    expect(refusal(unknown)).toEqual({
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error:
        "Unknown model 'gpt-5-4' for Copilot on relay \"build-box\"; did you mean 'gpt-5.4'? Valid ids: gpt-5.4, claude-opus-5.5, gpt-4.1. Nothing was created.",
    });
    expect(unknown).not.toHaveProperty("remoteCode");

    // The call itself (no preflight) is checked the same way on build-box.
    const direct = await box.engine.executeFromPeer(
      {
        relay: "desk",
        session: desk.caller.id,
        title: "Planner",
        model: "test-1",
        hops: 1,
        userUnlocked: true,
      },
      { action: "create_session", relay: "this", provider: "copilot", model: "claude-opus-5-5", text: "hi" },
    );
    expect(direct).toMatchObject({ ok: false, remoteCode: "CLAUDE_PROVIDER_REQUIRED" });

    expect(await sessionIds()).toEqual(before);
    // Refused before any card (R-MDL-01): the owner here was asked nothing.
    expect(await desk.stores.cards.listCards({ status: "pending" })).toEqual([]);
    // Checked once on build-box (a preflight), and never run there.
    expect(fed.requests.map(({ request }) => request.origin.preflight === true)).toEqual([true, true]);
  });
});
