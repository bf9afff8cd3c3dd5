import { describe, expect, it } from "vitest";
import { commandProviderSource, RESERVED_PROVIDER_IDS } from "../../src";

const GOOD = {
  command: ["lint-agent", "--model={model}", "--effort", "{effort}", "--session", "{session}", "{cwd}"],
  models: ["m1", "m2"],
  efforts: ["low", "high"],
  timeoutSeconds: 1800,
  label: "Lint agent",
};

const source = commandProviderSource({ env: {} });

/** The problems of GOOD with some fields replaced (`undefined` removes one). */
function problemsOf(changes: Record<string, unknown>, id = "lint"): readonly string[] | undefined {
  const entry: Record<string, unknown> = { ...GOOD, ...changes };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) {
      delete entry[key];
    }
  }
  return source.check(id, entry);
}

function names(count: number, make: (index: number) => string): string[] {
  return Array.from({ length: count }, (_, index) => make(index));
}

describe("command provider source: check (DESIGN §4 settings.providers)", () => {
  it("finds no problem in a good definition, nor in one with only command and models", () => {
    expect(source.check("lint", GOOD)).toEqual([]);
    expect(source.check("lint", { command: ["lint-agent"], models: ["m1"] })).toEqual([]);
  });

  it("leaves entries that are not command definitions to other sources", () => {
    for (const entry of [
      null,
      undefined,
      "lint-agent",
      42,
      ["lint-agent"],
      { apiKey: "k", monthlyCapUsd: 5 },
      { models: ["m1"] },
    ]) {
      expect(source.check("lint", entry)).toBeUndefined();
    }
    expect(source.check("claude-api", { apiKey: "k" })).toBeUndefined();
  });

  it("takes ids of a lowercase letter then up to 39 of [a-z0-9_-], and refuses others naming providers.<id>", () => {
    expect(problemsOf({}, "a")).toEqual([]);
    expect(problemsOf({}, `a${"b".repeat(39)}`)).toEqual([]);
    expect(problemsOf({}, "my_lint-2")).toEqual([]);
    for (const id of [`a${"b".repeat(40)}`, "Lint", "2lint", "lint.agent", "", "-lint"]) {
      const problems = problemsOf({}, id);
      expect(problems).toHaveLength(1);
      expect(problems?.[0]).toMatch(
        new RegExp(`^providers\\.${id.replace(".", "\\.")}: a provider id is a lowercase letter`),
      );
    }
  });

  it("refuses the reserved ids of built-in providers", () => {
    expect(RESERVED_PROVIDER_IDS).toEqual([
      "script",
      "external",
      "claude",
      "claude-api",
      "claude-cloud",
      "copilot",
      "grok",
      "deepseek",
    ]);
    for (const id of RESERVED_PROVIDER_IDS) {
      expect(problemsOf({}, id)).toEqual([
        `providers.${id}: "${id}" is a built-in provider id (script, external, claude, claude-api, claude-cloud, copilot, grok, deepseek); give the command provider another id`,
      ]);
    }
  });

  describe("command", () => {
    it("is a non-empty list of strings", () => {
      for (const command of [[], "lint-agent", { program: "lint-agent" }, null]) {
        expect(problemsOf({ command })).toEqual([
          'providers.lint.command: expected a non-empty list of strings, the program then its arguments, e.g. ["prog", "--model", "{model}"]',
        ]);
      }
    });

    it("takes 64 items and refuses 65", () => {
      expect(problemsOf({ command: names(64, (i) => `arg${i}`) })).toEqual([]);
      expect(problemsOf({ command: names(65, (i) => `arg${i}`) })).toEqual([
        "providers.lint.command: at most 64 items (got 65)",
      ]);
    });

    it("refuses items that are not strings, are empty, or hold a NUL byte, naming each by position", () => {
      expect(problemsOf({ command: ["lint-agent", 42, "", "a\0b", "ok"] })).toEqual([
        "providers.lint.command: item 2 must be a non-empty string without NUL bytes (got 42)",
        'providers.lint.command: item 3 must be a non-empty string without NUL bytes (got "")',
        'providers.lint.command: item 4 must be a non-empty string without NUL bytes (got "a\\u0000b")',
      ]);
      expect(problemsOf({ command: [""] })).toEqual([
        'providers.lint.command: item 1 must be a non-empty string without NUL bytes (got "")',
      ]);
    });

    it("refuses a placeholder in the program", () => {
      expect(problemsOf({ command: ["{model}", "x"] })).toEqual([
        'providers.lint.command: the first item is the program and cannot hold a placeholder (got "{model}")',
      ]);
      expect(problemsOf({ command: ["bin/{cwd}-agent"] })).toEqual([
        'providers.lint.command: the first item is the program and cannot hold a placeholder (got "bin/{cwd}-agent")',
      ]);
    });

    it("takes {model}, {effort}, {session} and {cwd}, inside items too, and names any other placeholder", () => {
      expect(problemsOf({ command: ["x", "{model}{effort}", "--s={session}", "in {cwd} now"] })).toEqual([]);
      expect(problemsOf({ command: ["x", '{"json": true}', "{ spaced }", "{}"] })).toEqual([]);
      expect(problemsOf({ command: ["x", "--model={modle}", "{prompt} {model} {HOME}"] })).toEqual([
        'providers.lint.command: unknown placeholder {modle} in item 2 ("--model={modle}"); the placeholders are {model}, {effort}, {session}, {cwd}',
        'providers.lint.command: unknown placeholder {prompt} in item 3 ("{prompt} {model} {HOME}"); the placeholders are {model}, {effort}, {session}, {cwd}',
        'providers.lint.command: unknown placeholder {HOME} in item 3 ("{prompt} {model} {HOME}"); the placeholders are {model}, {effort}, {session}, {cwd}',
      ]);
    });
  });

  describe("models", () => {
    it("is required and non-empty", () => {
      const expected = [
        'providers.lint.models: expected a non-empty list of model ids, the first being the default, e.g. ["m1", "m2"]',
      ];
      expect(problemsOf({ models: undefined })).toEqual(expected);
      expect(problemsOf({ models: [] })).toEqual(expected);
      expect(problemsOf({ models: "m1" })).toEqual(expected);
    });

    it("takes 50 models and refuses 51", () => {
      expect(problemsOf({ models: names(50, (i) => `m${i}`) })).toEqual([]);
      expect(problemsOf({ models: names(51, (i) => `m${i}`) })).toEqual([
        "providers.lint.models: at most 50 items (got 51)",
      ]);
    });

    it("takes ids of up to 100 characters from [A-Za-z0-9._:/-] starting with a letter or digit", () => {
      expect(problemsOf({ models: ["gpt-5.1", "org/model:latest", "A_b", `a${"b".repeat(99)}`] })).toEqual(
        [],
      );
      const problems = problemsOf({ models: ["ok", `a${"b".repeat(100)}`, "-lead", "has space", 7] });
      expect(problems).toHaveLength(4);
      expect(problems?.[0]).toMatch(
        /^providers\.lint\.models: item 2 must be a model id: 1–100 letters, digits/,
      );
      expect(problems?.[1]).toBe(
        'providers.lint.models: item 3 must be a model id: 1–100 letters, digits, ".", "_", ":", "/" or "-", starting with a letter or digit (got "-lead")',
      );
      expect(problems?.[2]).toMatch(/^providers\.lint\.models: item 4 .*\(got "has space"\)$/);
      expect(problems?.[3]).toMatch(/^providers\.lint\.models: item 5 .*\(got 7\)$/);
    });

    it("refuses a model listed twice", () => {
      expect(problemsOf({ models: ["m1", "m2", "m1"] })).toEqual([
        'providers.lint.models: "m1" is listed twice; each must be unique',
      ]);
    });
  });

  describe("efforts", () => {
    it("is optional, may be empty, and takes 10 but not 11", () => {
      expect(problemsOf({ efforts: undefined })).toEqual([]);
      expect(problemsOf({ efforts: [] })).toEqual([]);
      expect(problemsOf({ efforts: names(10, (i) => `e${i}`) })).toEqual([]);
      expect(problemsOf({ efforts: names(11, (i) => `e${i}`) })).toEqual([
        "providers.lint.efforts: at most 10 items (got 11)",
      ]);
    });

    it("refuses a non-list, empty or non-string names and duplicates", () => {
      expect(problemsOf({ efforts: "high" })).toEqual([
        'providers.lint.efforts: expected a list of effort names, e.g. ["low", "high"]',
      ]);
      expect(problemsOf({ efforts: ["low", "", 3, "low"] })).toEqual([
        'providers.lint.efforts: item 2 must be an effort name: a non-empty string without NUL bytes (got "")',
        "providers.lint.efforts: item 3 must be an effort name: a non-empty string without NUL bytes (got 3)",
        'providers.lint.efforts: "low" is listed twice; each must be unique',
      ]);
    });
  });

  describe("timeoutSeconds", () => {
    it("takes whole seconds from 1 to 86400", () => {
      expect(problemsOf({ timeoutSeconds: 1 })).toEqual([]);
      expect(problemsOf({ timeoutSeconds: 86_400 })).toEqual([]);
      expect(problemsOf({ timeoutSeconds: undefined })).toEqual([]);
    });

    it("refuses 0, 86401, fractions and non-numbers", () => {
      for (const [value, shown] of [
        [0, "0"],
        [86_401, "86401"],
        [1.5, "1.5"],
        ["60", '"60"'],
        [null, "null"],
      ] as const) {
        expect(problemsOf({ timeoutSeconds: value })).toEqual([
          `providers.lint.timeoutSeconds: expected a whole number of seconds from 1 to 86400 (got ${shown})`,
        ]);
      }
    });
  });

  describe("label", () => {
    it("takes a non-empty text of at most 80 characters", () => {
      expect(problemsOf({ label: "x".repeat(80) })).toEqual([]);
      for (const label of ["", "   ", "x".repeat(81), 5]) {
        const problems = problemsOf({ label });
        expect(problems).toHaveLength(1);
        expect(problems?.[0]).toMatch(
          /^providers\.lint\.label: expected a non-empty text of at most 80 characters \(got /,
        );
      }
    });
  });

  it("names every unknown field and lists the fields a command provider takes", () => {
    expect(problemsOf({ foo: 1, apiKey: "k" })).toEqual([
      "providers.lint.foo: unknown field; a command provider takes command, models, efforts, timeoutSeconds, label",
      "providers.lint.apiKey: unknown field; a command provider takes command, models, efforts, timeoutSeconds, label",
    ]);
  });

  it("reports every problem of an entry at once, each naming its own field", () => {
    const problems = source.check("Bad", {
      command: [],
      models: [],
      efforts: [""],
      timeoutSeconds: 0,
      label: "",
      extra: true,
    });
    expect(problems?.map((problem) => problem.split(":")[0])).toEqual([
      "providers.Bad",
      "providers.Bad.command",
      "providers.Bad.models",
      "providers.Bad.efforts",
      "providers.Bad.timeoutSeconds",
      "providers.Bad.label",
      "providers.Bad.extra",
    ]);
  });
});
