import { describe, expect, it } from "vitest";
import { acpProviderSource } from "../../src";
import { MAX_ACP_ENV_VALUE_LENGTH, MAX_ACP_ENV_VARIABLES } from "../../src/acp/acp-definition";

const GOOD = {
  acp: ["gemini", "--experimental-acp", "--model", "{model}"],
  models: ["gemini-3.8-flash", "gemini-4-argon"],
  env: { GEMINI_API_KEY: "k" },
  timeoutSeconds: 1800,
  label: "Gemini CLI",
};

const source = acpProviderSource({ env: {} });

function problemsOf(changes: Record<string, unknown>, id = "gemini"): readonly string[] | undefined {
  const entry: Record<string, unknown> = { ...GOOD, ...changes };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) {
      delete entry[key];
    }
  }
  return source.check(id, entry);
}

const variables = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`V${i}`, "x"]));

describe("ACP agent source: check (DESIGN §5 settings.providers.<id>.acp)", () => {
  it("finds no problem in a good definition, nor in one with only acp", () => {
    expect(source.check("gemini", GOOD)).toEqual([]);
    expect(source.check("gemini", { acp: ["gemini", "--experimental-acp"] })).toEqual([]);
  });

  it("leaves entries without `acp` to other sources", () => {
    for (const entry of [null, "gemini", ["gemini"], { command: ["x"], models: ["m"] }, { apiKey: "k" }]) {
      expect(source.check("gemini", entry)).toBeUndefined();
    }
  });

  it("refuses an empty or non-list acp, naming the field", () => {
    for (const acp of [[], "gemini --acp", null]) {
      expect(problemsOf({ acp })).toEqual([
        'providers.gemini.acp: expected a non-empty list of strings, the program then its arguments, e.g. ["prog", "--model", "{model}"]',
      ]);
    }
    expect(problemsOf({ acp: ["gemini", "--model={modle}"] })).toEqual([
      'providers.gemini.acp: unknown placeholder {modle} in item 2 ("--model={modle}"); the placeholders are {model}, {effort}, {session}, {cwd}',
    ]);
  });

  it("refuses unknown fields and the built-in ids, copilot among them", () => {
    expect(problemsOf({ command: ["x"] })).toEqual([
      "providers.gemini.command: unknown field; an ACP agent takes acp, models, env, timeoutSeconds, label",
    ]);
    expect(problemsOf({}, "copilot")).toEqual([
      'providers.copilot: "copilot" is a built-in provider id (script, external, claude, claude-api, claude-cloud, copilot, grok, deepseek); give the ACP provider another id',
    ]);
    expect(problemsOf({}, "grok")).toEqual([
      'providers.grok: "grok" is a built-in provider id (script, external, claude, claude-api, claude-cloud, copilot, grok, deepseek); give the ACP provider another id',
    ]);
  });

  it(`env: up to ${MAX_ACP_ENV_VARIABLES} variables of up to ${MAX_ACP_ENV_VALUE_LENGTH} characters; names and NUL bytes checked`, () => {
    expect(problemsOf({ env: variables(MAX_ACP_ENV_VARIABLES) })).toEqual([]);
    expect(problemsOf({ env: variables(MAX_ACP_ENV_VARIABLES + 1) })).toEqual([
      `providers.gemini.env: at most ${MAX_ACP_ENV_VARIABLES} variables (got ${MAX_ACP_ENV_VARIABLES + 1})`,
    ]);
    expect(problemsOf({ env: { K: "x".repeat(MAX_ACP_ENV_VALUE_LENGTH) } })).toEqual([]);
    expect(problemsOf({ env: { K: "x".repeat(MAX_ACP_ENV_VALUE_LENGTH + 1) } })).toHaveLength(1);
    expect(problemsOf({ env: { K: "a\0b" } })).toEqual([
      `providers.gemini.env.K: expected a text of at most ${MAX_ACP_ENV_VALUE_LENGTH} characters without NUL bytes (got "a\\u0000b")`,
    ]);
    expect(problemsOf({ env: { "1BAD": "v" } })).toEqual([
      'providers.gemini.env: "1BAD" is not a variable name (letters, digits and "_", not starting with a digit)',
    ]);
    expect(problemsOf({ env: ["GEMINI_API_KEY=k"] })).toEqual([
      'providers.gemini.env: expected an object of variable names to texts, e.g. {"GEMINI_API_KEY": "…"}',
    ]);
  });

  it("reports every problem at once, and makes no provider of a bad entry", () => {
    expect(problemsOf({ acp: [], models: [], timeoutSeconds: 0 })).toHaveLength(3);
    expect(source.providers({ gemini: { ...GOOD, acp: [] } })).toEqual([]);
  });

  it("makes a provider with the definition's label and models, the first the default; without models, any model passes until the agent offers some", () => {
    const [defined] = source.providers({ gemini: GOOD });
    expect(defined?.info).toEqual({
      id: "gemini",
      label: "Gemini CLI",
      models: [{ id: "gemini-3.8-flash", default: true }, { id: "gemini-4-argon" }],
      efforts: [],
      usageTracked: true,
    });
    const [bare] = source.providers({ opencode: { acp: ["/usr/local/bin/opencode", "acp"] } });
    expect(bare?.info).toMatchObject({ id: "opencode", label: "ACP: opencode", models: null });
  });
});
