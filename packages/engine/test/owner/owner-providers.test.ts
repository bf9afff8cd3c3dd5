import { OwnerProvidersSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import type { ProviderSource } from "../../src/ports/provider";
import { createTestProvider } from "../../src/testing";
import { createHarness } from "../actions/harness";
import { outsideProvider } from "./harness";

/** Settings entries with `models` make a provider of that id, as a command CLI's do. */
const cliSource: ProviderSource = {
  check: (_id, entry) => (typeof entry === "object" && entry !== null && "models" in entry ? [] : undefined),
  providers: (entries) =>
    Object.entries(entries).map(([id, entry]) =>
      createTestProvider({
        info: {
          id,
          label: `CLI ${id}`,
          models: (entry as { models: string[] }).models.map((model) => ({ id: model })),
        },
      }),
    ),
};

describe("the providers the owner starts a conversation with (DESIGN §4, R-RINFO-03)", () => {
  it("are relay_info's: models with the default, efforts, notConfigured; none whose agent runs outside the relay", async () => {
    const h = await createHarness({
      extraProviders: [
        outsideProvider(),
        createTestProvider({
          info: {
            id: "claude-api",
            label: "Claude API",
            models: [{ id: "opus" }, { id: "sonnet", default: true }],
            efforts: ["low", "high"],
            notConfigured: "Claude API needs an API key in the settings.",
          },
        }),
      ],
    });
    const providers = await h.engine.owner.listProviders();
    const info = await h.ok({ action: "relay_info", relay: "this" });
    expect(providers).toEqual(info.providers);
    expect(providers).toEqual([
      {
        id: "test",
        name: "Test provider",
        defaultModel: "test-1",
        models: ["test-1", "test-2"],
        efforts: ["low", "high"],
      },
      {
        id: "claude-api",
        name: "Claude API",
        defaultModel: "sonnet",
        models: ["opus", "sonnet"],
        efforts: ["low", "high"],
        notConfigured: "Claude API needs an API key in the settings.",
      },
    ]);
    expect(OwnerProvidersSchema.parse({ providers }).providers).toEqual(providers);
  });

  it("a provider the settings define is offered at once", async () => {
    const h = await createHarness({ providerSources: [cliSource] });
    await h.engine.owner.patchSettings({ providers: { lint: { models: ["fast", "slow"] } } });
    expect((await h.engine.owner.listProviders()).map((p) => [p.id, p.defaultModel])).toEqual([
      ["test", "test-1"],
      ["lint", "fast"],
    ]);
  });
});
