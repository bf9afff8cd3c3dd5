import { describe, expect, it } from "vitest";
import type { ProviderSource } from "../../src/ports/provider";
import { createTestProvider, openTestStores, type TestProvider, withFailingMethod } from "../../src/testing";
import { outage } from "../runtime/harness";
import { createHarness } from "./harness";

/**
 * A source of providers defined in the settings, as command CLIs are: an entry with `models`
 * makes a provider of that id; anything else in the entry is a problem naming its field.
 */
function modelsSource(made: TestProvider[]): ProviderSource {
  return {
    check(id, entry) {
      if (id === "keyed") {
        return typeof (entry as { apiKey?: unknown }).apiKey === "string"
          ? []
          : [`providers.${id}.apiKey: missing`];
      }
      if (typeof entry !== "object" || entry === null || !("models" in entry)) {
        return undefined;
      }
      const { models, ...rest } = entry as { models: unknown };
      return [
        ...(Array.isArray(models) && models.length > 0
          ? []
          : [`providers.${id}.models: a non-empty list of model ids`]),
        ...Object.keys(rest).map((field) => `providers.${id}.${field}: unknown field`),
      ];
    },
    providers(entries) {
      return Object.entries(entries).flatMap(([id, entry]) => {
        if (id === "keyed" || !Array.isArray((entry as { models?: unknown }).models)) {
          return [];
        }
        const models = (entry as { models: string[] }).models.map((model, i) => ({
          id: model,
          default: i === 0,
        }));
        const provider = createTestProvider({ info: { id, label: `CLI ${id}`, models } });
        made.push(provider);
        return [provider];
      });
    },
  };
}

async function providerIds(h: Awaited<ReturnType<typeof createHarness>>) {
  const info = await h.ok({ action: "relay_info", relay: "this" });
  return (info.providers as { id: string }[]).map((provider) => provider.id);
}

describe("providers from the owner's settings (DESIGN §4, issue 10)", () => {
  it("a provider the settings define is offered at once, its worker restarts when its definition changes, null removes it", async () => {
    const made: TestProvider[] = [];
    const h = await createHarness({ providerSources: [modelsSource(made)] });
    expect(await providerIds(h)).toEqual(["test"]);
    await h.patchSettings({ providers: { lint: { models: ["fast", "slow"] } } });
    expect(await providerIds(h)).toEqual(["test", "lint"]);
    const session = await h.agentSession({ provider: "lint", model: "fast" });
    await h.ok({ action: "send", relay: "this", session: session.id, text: "one", wait_seconds: 5 });
    expect(made.at(-1)?.prompts.map((p) => p.prompt)).toEqual(["one"]);
    const unknown = await h.call({
      action: "send",
      relay: "this",
      session: session.id,
      text: "x",
      model: "medium",
    });
    expect(unknown.code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    await h.patchSettings({ providers: { lint: { models: ["fast", "medium"] } } });
    await h.ok({
      action: "send",
      relay: "this",
      session: session.id,
      text: "two",
      model: "medium",
      wait_seconds: 5,
    });
    expect(made.at(-1)?.prompts.map((p) => p.prompt)).toEqual(["two"]);
    await h.patchSettings({ providers: { lint: null } });
    expect(await providerIds(h)).toEqual(["test"]);
    const gone = await h.call({ action: "send", relay: "this", session: session.id, text: "three" });
    expect(gone.code).toBe("REMOTE_RELAY_PROVIDER_UNAVAILABLE");
  });

  it("a bad definition is refused naming each field, and nothing of the patch is kept", async () => {
    const h = await createHarness({ providerSources: [modelsSource([])] });
    const before = await h.engine.owner.getSettings();
    await expect(
      h.engine.owner.patchSettings({
        quietAfterMinutes: 30,
        providers: { lint: { models: [], color: "red" } },
      }),
    ).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
      message: expect.stringMatching(/providers\.lint\.models: .*providers\.lint\.color: unknown field/),
    });
    await expect(
      h.engine.owner.patchSettings({ providers: { mystery: { flavour: 1 } } }),
    ).rejects.toMatchObject({
      message: expect.stringContaining(
        'providers.mystery: no provider of this relay takes settings under "mystery"',
      ),
    });
    expect(await h.engine.owner.getSettings()).toEqual(before);
  });

  it("an API key is never shown back, and a patch without it keeps the stored one", async () => {
    const h = await createHarness({ providerSources: [modelsSource([])] });
    await h.patchSettings({ providers: { keyed: { apiKey: "sk-secret-1", monthlyCapUsd: 10 } } });
    const shown = await h.engine.owner.getSettings();
    expect(shown.providers.keyed).toEqual({ apiKeySet: true, monthlyCapUsd: 10 });
    expect(JSON.stringify(shown)).not.toContain("sk-secret-1");
    // What GET showed goes back unchanged but for the cap: the key stays.
    await h.patchSettings({ providers: { keyed: { ...shown.providers.keyed, monthlyCapUsd: 20 } } });
    const stored = await h.stores.settings.getSetting("owner.settings");
    expect((stored as { providers: Record<string, unknown> }).providers.keyed).toEqual({
      apiKey: "sk-secret-1",
      monthlyCapUsd: 20,
    });
  });

  it("a call while the settings cannot be read (the database away) is answered REMOTE_RELAY_UNAVAILABLE, never thrown as a bug", async () => {
    let down = false;
    const stores = withFailingMethod(await openTestStores(), "settings.getSetting", {
      failing: () => down,
      error: outage,
    });
    const h = await createHarness({ stores, providerSources: [modelsSource([])] });
    const caller = await h.ownerSession();
    down = true;
    // Past the settings cache's second: the call reads them from the database.
    h.clock.advance(2_000);
    const answered = await h.engine.execute(caller.id, { action: "relay_info", relay: "this" });
    expect(answered).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNAVAILABLE" });
  });
});
