import { describe, expect, it } from "vitest";
import { checkModel, suggestModels } from "../../src/actions/model-check";
import type { ProviderInfo } from "../../src/ports/provider";
import { createTestProvider } from "../../src/testing";
import { createHarness } from "./harness";

const copilot: ProviderInfo = {
  id: "copilot",
  label: "Copilot",
  models: [{ id: "gpt-5.4", default: true }, { id: "claude-opus-5.5" }, { id: "gpt-4.1" }],
  efforts: [],
  dottedModelIds: true,
};

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
      checkModel({ provider: { ...copilot, models: null }, model: "x", relayName: "desk", nothing: "" }),
    ).toEqual({
      modelNote: "Relay \"desk\" has no model list for Copilot yet, so the model 'x' was not checked.",
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
