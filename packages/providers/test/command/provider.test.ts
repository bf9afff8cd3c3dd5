import { describe, expect, it } from "vitest";
import { commandProviderSource, createCommandProvider } from "../../src";

describe("command provider: info and source (DESIGN §5)", () => {
  it("offers the definition's models (the first the default) and efforts, untracked usage, and labels by program", () => {
    const provider = createCommandProvider(
      "lint",
      { command: ["tools/bin/lint-agent", "{model}"], models: ["fast", "deep"], efforts: ["low", "high"] },
      { env: {} },
    );
    expect(provider.info).toEqual({
      id: "lint",
      label: "Command: lint-agent",
      models: [{ id: "fast", default: true }, { id: "deep" }],
      efforts: ["low", "high"],
      usageTracked: false,
    });
  });

  it("takes the definition's label, and no efforts when it has none", () => {
    const provider = createCommandProvider(
      "lint",
      { command: ["lint-agent"], models: ["m1"], label: "Lint bot" },
      { env: {} },
    );
    expect(provider.info.label).toBe("Lint bot");
    expect(provider.info.efforts).toEqual([]);
    expect(provider.info.drivenFromOutside).toBeUndefined();
  });

  it("makes one provider per good command entry, in the entries' order, and skips the rest", () => {
    const source = commandProviderSource({ env: {} });
    const providers = source.providers({
      zeta: { command: ["zeta-agent"], models: ["z1"] },
      "claude-api": { apiKey: "k", monthlyCapUsd: 5 },
      broken: { command: [], models: ["b1"] },
      alpha: { command: ["alpha-agent"], models: ["a1", "a2"], timeoutSeconds: 60 },
      script: { command: ["x"], models: ["m1"] },
      gone: null,
    });
    expect(providers.map((provider) => provider.info.id)).toEqual(["zeta", "alpha"]);
    expect(providers[1]?.info.models).toEqual([{ id: "a1", default: true }, { id: "a2" }]);
  });

  it("starts a worker per session", () => {
    const provider = createCommandProvider("lint", { command: ["lint-agent"], models: ["m1"] }, { env: {} });
    const session = {
      id: "ses_1",
      title: "t",
      model: "m1",
      effort: null,
      mode: "agent" as const,
      cwd: null,
      providerState: null,
    };
    const first = provider.startWorker(session);
    const second = provider.startWorker({ ...session, id: "ses_2" });
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(first).not.toBe(second);
  });
});
