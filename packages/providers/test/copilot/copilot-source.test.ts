import { describe, expect, it } from "vitest";
import { COPILOT_MODEL_IDS, copilotNotFoundMessage, copilotProviderSource } from "../../src";
import { pinnedCopilotBinary } from "./copilot-testbed";

describe("copilot provider source (DESIGN §5)", () => {
  it("without the CLI, copilot is listed as not configured, saying how to install it, and starts no worker", () => {
    const [provider] = copilotProviderSource({ env: { PATH: "/nonexistent" } }).providers({});
    expect(provider?.info).toMatchObject({
      id: "copilot",
      label: "Copilot",
      dottedModelIds: true,
      notConfigured:
        "GitHub Copilot's CLI (copilot) was not found on this relay: install it (npm i -g @github/copilot), or set RELAY_COPILOT_BIN.",
    });
    expect(() => provider?.startWorker({} as never)).toThrow(/not found/);
    expect(copilotNotFoundMessage("/opt/copilot")).toBe(
      "GitHub Copilot's CLI was not found at /opt/copilot (RELAY_COPILOT_BIN) on this relay.",
    );
  });

  it("offers the pinned CLI's dotted model ids, the BYOK model (COPILOT_MODEL) first as the default, and its efforts", () => {
    const [plain] = copilotProviderSource({ bin: pinnedCopilotBinary(), env: {} }).providers({});
    expect(plain?.info.notConfigured).toBeUndefined();
    expect(plain?.info.models?.map((model) => model.id)).toEqual(COPILOT_MODEL_IDS);
    expect(plain?.info.models?.[0]).toEqual({ id: "claude-sonnet-5.5", default: true });
    expect(plain?.info.models?.map((model) => model.id)).toContain("gpt-5.4");
    expect(plain?.info.efforts).toEqual(["none", "minimal", "low", "medium", "high", "xhigh", "max"]);

    const [byok] = copilotProviderSource({
      bin: pinnedCopilotBinary(),
      env: { COPILOT_MODEL: "qwen3-coder" },
    }).providers({});
    expect(byok?.info.models?.slice(0, 2)).toEqual([
      { id: "qwen3-coder", default: true },
      { id: "claude-sonnet-5.5" },
    ]);
  });

  it("takes no settings: entries under copilot are left to the sources that refuse them", () => {
    expect(copilotProviderSource({ env: {} }).check("copilot", { acp: ["x"] })).toBeUndefined();
  });
});
