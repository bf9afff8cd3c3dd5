import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  CLAUDE_API_NOT_CONFIGURED,
  claudeNotFoundMessage,
  claudeProviderSource,
  findClaudeBinary,
} from "../../src";

const SESSION = {
  id: "ses_1",
  title: "Claude",
  model: "claude-sonnet-5-5",
  effort: null,
  mode: "agent" as const,
  cwd: null,
  providerState: null,
};

function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "oar-claude-bin-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A folder with an executable `claude` in it (never run here), removed after the test. */
function folderWithClaude(): string {
  const dir = tempFolder();
  writeFileSync(join(dir, "claude"), "#!/bin/sh\nexit 0\n");
  chmodSync(join(dir, "claude"), 0o755);
  return dir;
}

describe("claudeProviderSource: settings entries", () => {
  const source = claudeProviderSource({ bin: null, env: { PATH: "" } });

  it("handles only claude and claude-api", () => {
    expect(source.check("lint", { command: ["x"] })).toBeUndefined();
    expect(source.check("script", {})).toBeUndefined();
  });

  it("takes an API key and an optional monthly cap for claude-api", () => {
    expect(source.check("claude-api", { apiKey: "sk-ant-1" })).toEqual([]);
    expect(source.check("claude-api", { apiKey: "sk-ant-1", monthlyCapUsd: 25.5 })).toEqual([]);
    expect(source.check("claude-api", { apiKey: "sk-ant-1", monthlyCapUsd: 1_000_000 })).toEqual([]);
  });

  it("names the field of each problem of a claude-api entry", () => {
    expect(source.check("claude-api", {})).toEqual([
      "providers.claude-api.apiKey: must be the Anthropic API key, a non-empty string",
    ]);
    expect(source.check("claude-api", { apiKey: "sk-ant 1\n", monthlyCapUsd: 0, plan: "pro" })).toEqual([
      "providers.claude-api.apiKey: must not contain spaces or line breaks (a pasted key often carries them)",
      "providers.claude-api.monthlyCapUsd: must be a number of US dollars above 0 and at most 1000000",
      "providers.claude-api.plan: unknown setting; claude-api takes apiKey and monthlyCapUsd",
    ]);
    for (const cap of [-1, 1_000_001, Number.NaN, "20"]) {
      expect(source.check("claude-api", { apiKey: "k", monthlyCapUsd: cap })).toHaveLength(1);
    }
    expect(source.check("claude-api", "sk-ant-1")).toEqual([
      'providers.claude-api: must be an object like {"apiKey": "…"}',
    ]);
  });

  it("takes an optional gitBaseUrl for claude-cloud, a URL git clones from", () => {
    expect(source.check("claude-cloud", {})).toEqual([]);
    for (const gitBaseUrl of [
      "https://github.com/",
      "file:///srv/git/",
      "git@github.com:",
      "ssh://git@host/x/",
    ]) {
      expect(source.check("claude-cloud", { gitBaseUrl })).toEqual([]);
    }
    expect(source.check("claude-cloud", { gitBaseUrl: "github.com", token: "t" })).toEqual([
      "providers.claude-cloud.gitBaseUrl: must be a URL git clones from (https://, ssh://, git://, file:// or user@host:), under which owner/name repositories are found",
      "providers.claude-cloud.token: unknown setting; claude-cloud takes gitBaseUrl",
    ]);
    expect(source.check("claude-cloud", "x")).toEqual([
      'providers.claude-cloud: must be an object like {"gitBaseUrl": "https://github.com/"}',
    ]);
  });

  it("takes no settings for claude", () => {
    expect(source.check("claude", {})).toEqual([]);
    expect(source.check("claude", { apiKey: "k" })).toEqual([
      "providers.claude.apiKey: claude takes no settings (it uses the Claude Code login of the relay's user)",
    ]);
  });
});

describe("claudeProviderSource: providers", () => {
  it("lists all three as not configured, saying why, when the CLI is not installed; none starts a worker", () => {
    const onPath = claudeProviderSource({ env: { PATH: tempFolder() } }).providers({});
    expect(onPath.map((provider) => [provider.info.id, provider.info.notConfigured])).toEqual([
      ["claude", claudeNotFoundMessage(undefined)],
      ["claude-api", claudeNotFoundMessage(undefined)],
      ["claude-cloud", claudeNotFoundMessage(undefined)],
    ]);
    const [named] = claudeProviderSource({ bin: "/nonexistent/claude", env: {} }).providers({});
    expect(named?.info.notConfigured).toBe(
      "Claude Code's CLI was not found at /nonexistent/claude (RELAY_CLAUDE_BIN) on this relay.",
    );
    expect(() => named?.startWorker(SESSION)).toThrow(/not found/);
  });

  it("offers claude, claude-api and claude-cloud when the CLI is on PATH; claude-api says it is not configured without a key, claude-cloud without a workspace", () => {
    const source = claudeProviderSource({ env: { PATH: `/nonexistent:${folderWithClaude()}` } });

    const [subscription, api, cloud, ...rest] = source.providers({});

    expect(rest).toEqual([]);
    expect(cloud?.info).toMatchObject({
      id: "claude-cloud",
      worksOn: "repository",
      notConfigured: expect.stringContaining("no workspace"),
    });
    const withWorkspace = claudeProviderSource({
      env: { PATH: folderWithClaude() },
      workspaceDir: tempFolder(),
    }).providers({});
    expect(withWorkspace[2]?.info.notConfigured).toBeUndefined();
    expect(subscription?.info).toMatchObject({
      id: "claude",
      label: "Claude (subscription)",
      usageTracked: true,
      costEstimate: expect.stringContaining("Claude Code's estimate"),
    });
    expect(subscription?.info.models?.find((model) => model.default)?.id).toBe("claude-sonnet-5-5");
    expect(subscription?.info.efforts).toEqual(["low", "medium", "high", "xhigh", "max"]);
    expect(subscription?.info.notConfigured).toBeUndefined();
    expect(api?.info).toMatchObject({
      id: "claude-api",
      label: "Claude (API key)",
      notConfigured: CLAUDE_API_NOT_CONFIGURED,
      costEstimate: expect.stringContaining("Claude Code's estimate"),
    });
  });

  it("gives claude-api its cap when the entry has a key", () => {
    const source = claudeProviderSource({ bin: join(folderWithClaude(), "claude"), env: {} });

    const api = source.providers({ "claude-api": { apiKey: "sk-ant-1", monthlyCapUsd: 40 } })[1];

    expect(api?.info.notConfigured).toBeUndefined();
    expect(api?.info.monthlyCapUsd).toBe(40);
  });

  it("finds a bare bin name on PATH, and findClaudeBinary finds claude there", () => {
    const dir = folderWithClaude();
    expect(findClaudeBinary({ PATH: `relative:${dir}` })).toBe(join(dir, "claude"));
    expect(findClaudeBinary({})).toBeNull();
    expect(claudeProviderSource({ bin: "claude", env: { PATH: dir } }).providers({})).toHaveLength(3);
  });
});
