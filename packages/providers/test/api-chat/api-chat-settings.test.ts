import { FakeClock } from "@oar/core/testing";
import type { Provider, Worker } from "@oar/engine";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it } from "vitest";
import { acpProviderSource, apiChatProviderSource, commandProviderSource } from "../../src";
import { SESSION, TEST_API_KEY } from "./api-chat-testbed";

const source = apiChatProviderSource();

/** The problems of a good grok entry with some fields replaced (`undefined` removes one). */
function problemsOf(changes: Record<string, unknown>, id = "grok"): readonly string[] | undefined {
  const entry: Record<string, unknown> = { apiKey: TEST_API_KEY, ...changes };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) {
      delete entry[key];
    }
  }
  return source.check(id, entry);
}

function providerOf(entries: Readonly<Record<string, unknown>>, id: string): Provider {
  const found = source.providers(entries).find((provider) => provider.info.id === id);
  if (found === undefined) {
    throw new Error(`no provider ${id}`);
  }
  return found;
}

describe("grok and deepseek settings: settings.providers.<id> = {apiKey, baseUrl?, models?, monthlyCapUsd?, prices?}", () => {
  it("takes only the ids grok and deepseek, and leaves every other entry to other sources", () => {
    expect(source.check("grok", { apiKey: TEST_API_KEY })).toEqual([]);
    expect(source.check("deepseek", { apiKey: "sk-deepseek" })).toEqual([]);
    for (const id of ["claude-api", "lint", "gemini", "copilot", "Grok"]) {
      expect(source.check(id, { apiKey: TEST_API_KEY })).toBeUndefined();
    }
  });

  it("the command and ACP sources refuse the two ids as built-in, and leave their API entries to this source", () => {
    const command = commandProviderSource({ env: {} });
    const acp = acpProviderSource({ env: {} });
    for (const id of ["grok", "deepseek"]) {
      expect(command.check(id, { apiKey: TEST_API_KEY })).toBeUndefined();
      expect(acp.check(id, { apiKey: TEST_API_KEY })).toBeUndefined();
      expect(command.check(id, { command: ["x"], models: ["m"] })?.[0]).toMatch(
        new RegExp(`^providers\\.${id}: "${id}" is a built-in provider id`),
      );
      expect(acp.check(id, { acp: ["x"] })?.[0]).toMatch(
        new RegExp(`^providers\\.${id}: "${id}" is a built-in provider id`),
      );
    }
    expect(command.providers({ grok: { command: ["x"], models: ["m"] } })).toEqual([]);
  });

  it("refuses an entry that is not an object", () => {
    for (const entry of [null, "key", 42, [TEST_API_KEY]]) {
      expect(source.check("grok", entry)).toEqual(['providers.grok: must be an object like {"apiKey": "…"}']);
    }
  });

  it("apiKey: a non-empty string without spaces or line breaks; the key is never echoed", () => {
    expect(problemsOf({ apiKey: "x" })).toEqual([]);
    for (const apiKey of [undefined, "", 42, null]) {
      expect(problemsOf({ apiKey })).toEqual([
        "providers.grok.apiKey: must be the xAI API key, a non-empty string",
      ]);
    }
    expect(problemsOf({ apiKey: "sk-deepseek" }, "deepseek")).toEqual([]);
    expect(problemsOf({ apiKey: undefined }, "deepseek")).toEqual([
      "providers.deepseek.apiKey: must be the DeepSeek API key, a non-empty string",
    ]);
    for (const apiKey of ["xai-secret\n", "xai secret", "\txai-secret"]) {
      const problems = problemsOf({ apiKey });
      expect(problems).toEqual([
        "providers.grok.apiKey: must not contain spaces or line breaks (a pasted key often carries them)",
      ]);
      expect(JSON.stringify(problems)).not.toContain("secret");
    }
  });

  it("baseUrl: an http or https URL without query or fragment", () => {
    for (const baseUrl of [
      "https://api.x.ai/v1",
      "http://127.0.0.1:8080/v1",
      "https://proxy.example/openai/",
    ]) {
      expect(problemsOf({ baseUrl })).toEqual([]);
    }
    for (const baseUrl of [
      "api.x.ai/v1",
      "ftp://api.x.ai/v1",
      "https://api.x.ai/v1?k=1",
      "https://api.x.ai/v1#x",
      "",
      8080,
    ]) {
      expect(problemsOf({ baseUrl })).toEqual([
        `providers.grok.baseUrl: must be an http or https URL without a query or fragment, like "https://api.x.ai/v1" (got ${JSON.stringify(baseUrl)})`,
      ]);
    }
  });

  it("models: a non-empty list of distinct model ids, the first the default", () => {
    expect(problemsOf({ models: ["grok-5"] })).toEqual([]);
    expect(problemsOf({ models: ["grok-5", "grok-4.7"] })).toEqual([]);
    for (const models of [[], "grok-5", null]) {
      expect(problemsOf({ models })).toEqual([
        'providers.grok.models: expected a non-empty list of model ids, the first being the default, e.g. ["m1", "m2"]',
      ]);
    }
    expect(problemsOf({ models: ["grok-5", " "] })).toEqual([
      'providers.grok.models: item 2 must be a model id: 1–100 letters, digits, ".", "_", ":", "/" or "-", starting with a letter or digit (got " ")',
    ]);
    expect(problemsOf({ models: ["grok-5", "grok-5"] })).toEqual([
      'providers.grok.models: "grok-5" is listed twice; each must be unique',
    ]);
  });

  it("monthlyCapUsd: above 0 and at most 1,000,000", () => {
    for (const monthlyCapUsd of [0.01, 50, 1_000_000]) {
      expect(problemsOf({ monthlyCapUsd })).toEqual([]);
    }
    for (const monthlyCapUsd of [0, -5, 1_000_000.01, Number.POSITIVE_INFINITY, Number.NaN, "50"]) {
      expect(problemsOf({ monthlyCapUsd })).toEqual([
        "providers.grok.monthlyCapUsd: must be a number of US dollars above 0 and at most 1000000",
      ]);
    }
  });

  it("prices: per model of the provider, inputPerMTok and outputPerMTok from 0 to 10,000", () => {
    expect(problemsOf({ prices: { "grok-4.7": { inputPerMTok: 0, outputPerMTok: 10_000 } } })).toEqual([]);
    expect(
      problemsOf({ models: ["grok-5"], prices: { "grok-5": { inputPerMTok: 2, outputPerMTok: 9 } } }),
    ).toEqual([]);
    expect(problemsOf({ prices: [] })).toEqual([
      'providers.grok.prices: must be an object of model ids to {"inputPerMTok": n, "outputPerMTok": n} (US dollars per million tokens)',
    ]);
    expect(problemsOf({ prices: { "grok-9": { inputPerMTok: 1, outputPerMTok: 1 } } })).toEqual([
      "providers.grok.prices.grok-9: not one of the provider's models (grok-4.7, grok-4.6, grok-4.5)",
    ]);
    expect(problemsOf({ prices: { "grok-4.7": 3 } })).toEqual([
      'providers.grok.prices.grok-4.7: must be an object like {"inputPerMTok": 3, "outputPerMTok": 15}',
    ]);
    expect(
      problemsOf({ prices: { "grok-4.7": { inputPerMTok: -1, outputPerMTok: 10_000.5, cachedPerMTok: 1 } } }),
    ).toEqual([
      "providers.grok.prices.grok-4.7.inputPerMTok: must be a number of US dollars per million tokens from 0 to 10000 (got -1)",
      "providers.grok.prices.grok-4.7.outputPerMTok: must be a number of US dollars per million tokens from 0 to 10000 (got 10000.5)",
      "providers.grok.prices.grok-4.7.cachedPerMTok: unknown field; a price takes inputPerMTok and outputPerMTok",
    ]);
    expect(problemsOf({ prices: { "grok-4.7": { inputPerMTok: 1 } } })).toEqual([
      "providers.grok.prices.grok-4.7.outputPerMTok: must be a number of US dollars per million tokens from 0 to 10000 (got undefined)",
    ]);
  });

  it("refuses unknown settings naming each, and reports every problem at once", () => {
    expect(problemsOf({ apiKey: "", timeoutSeconds: 30, label: "G" })).toEqual([
      "providers.grok.apiKey: must be the xAI API key, a non-empty string",
      "providers.grok.timeoutSeconds: unknown setting; grok takes apiKey, baseUrl, models, monthlyCapUsd, prices",
      "providers.grok.label: unknown setting; grok takes apiKey, baseUrl, models, monthlyCapUsd, prices",
    ]);
  });
});

describe("grok and deepseek providers' info", () => {
  it("both are listed without an entry, not configured, saying how to configure them, and their turns fail so", async () => {
    const providers = source.providers({});
    expect(providers.map((provider) => provider.info.id)).toEqual(["grok", "deepseek"]);
    const [grok, deepseek] = providers;
    expect(grok?.info).toEqual({
      id: "grok",
      label: "Grok (xAI API)",
      models: [{ id: "grok-4.7", default: true }, { id: "grok-4.6" }, { id: "grok-4.5" }],
      efforts: [],
      usageTracked: true,
      costEstimate:
        "The relay's estimate from the token counts Grok's API reports and a price table (the relay's own, or providers.grok.prices); the vendor's bill may differ.",
      notConfigured:
        "Grok has no API key on this relay: the owner sets providers.grok.apiKey in the settings.",
    });
    expect(deepseek?.info).toMatchObject({
      id: "deepseek",
      label: "DeepSeek (API)",
      models: [{ id: "deepseek-chat", default: true }, { id: "deepseek-reasoner" }],
      efforts: [],
      notConfigured:
        "DeepSeek has no API key on this relay: the owner sets providers.deepseek.apiKey in the settings.",
    });

    const worker = grok?.startWorker(SESSION) as Worker;
    const io = createRecordingTurnIO({ clock: new FakeClock() });
    const turn = {
      turnId: "trn_1",
      prompt: "Hi",
      model: "grok-4.7",
      effort: null,
      mode: "agent",
      cwd: null,
    } as const;
    expect(await worker.runTurn(turn, io)).toEqual({
      status: "error",
      error: "Grok has no API key on this relay: the owner sets providers.grok.apiKey in the settings.",
    });
  });

  it("a bad entry leaves the provider listed, not configured, without echoing the entry", () => {
    const grok = providerOf({ grok: { apiKey: "xai secret" } }, "grok");
    expect(grok.info.notConfigured).toBe(
      "Grok's settings on this relay have problems: the owner fixes providers.grok in the settings.",
    );
    expect(JSON.stringify(grok.info)).not.toContain("secret");
  });

  it("with a key: configured, the entry's models and cap; the key appears nowhere in the info", () => {
    const grok = providerOf(
      { grok: { apiKey: TEST_API_KEY, models: ["grok-5", "grok-4.7"], monthlyCapUsd: 40 } },
      "grok",
    );
    expect(grok.info.notConfigured).toBeUndefined();
    expect(grok.info.models).toEqual([{ id: "grok-5", default: true }, { id: "grok-4.7" }]);
    expect(grok.info.monthlyCapUsd).toBe(40);
    expect(JSON.stringify(grok.info)).not.toContain(TEST_API_KEY);
    expect(JSON.stringify(providerOf({ deepseek: { apiKey: TEST_API_KEY } }, "deepseek").info)).not.toContain(
      TEST_API_KEY,
    );
  });

  it("R-UPD-08: DeepSeek's window takes effect (0 = 400,000 tokens) and its thinking says why not; Grok has neither", () => {
    expect(providerOf({}, "deepseek").info.sessionSettings).toEqual({
      window: { zeroMeansTokens: 400_000 },
      thinking: "a DeepSeek session always uses thinking, so it cannot be turned off.",
    });
    expect(providerOf({}, "grok").info.sessionSettings).toBeUndefined();
  });

  it("refuses source options that are bugs: maxSteps below 1, a timeout of 0", () => {
    expect(() => apiChatProviderSource({ maxSteps: 0 })).toThrow(RangeError);
    expect(() => apiChatProviderSource({ maxSteps: 2.5 })).toThrow(RangeError);
    expect(() => apiChatProviderSource({ timeoutSeconds: 0 })).toThrow(RangeError);
  });
});
