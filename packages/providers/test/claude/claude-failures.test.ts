import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FakeClock } from "@oar/core/testing";
import { createRecordingTurnIO } from "@oar/engine/testing";
import { describe, expect, it, onTestFinished } from "vitest";
import { CLAUDE_API_NOT_CONFIGURED, claudeProviderSource } from "../../src";
import { findProvider, sessionOf, turnOf } from "./claude-testbed";

/** A stand-in `claude` for what the real CLI cannot be made to do; removed after the test. */
function fakeCli(script: string): { bin: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), "oar-fake-claude-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const bin = join(dir, "claude");
  writeFileSync(bin, `#!/bin/sh\n${script}\n`);
  chmodSync(bin, 0o755);
  return { bin, dir };
}

function runApiTurn(bin: string, entries: Record<string, unknown>, cwd: string) {
  const source = claudeProviderSource({ bin, env: { PATH: "/usr/bin:/bin" } });
  const worker = findProvider(source.providers(entries), "claude-api").startWorker(sessionOf(cwd));
  const io = createRecordingTurnIO({ clock: new FakeClock() });
  return { outcome: worker?.runTurn(turnOf("Hello.", cwd), io), io };
}

describe("claude: turns that cannot run", () => {
  it("ends in error with the CLI's exit and the last lines of its stderr when it fails before a result", async () => {
    const { bin, dir } = fakeCli(
      'echo \'{"type":"system","subtype":"init","session_id":"s1","tools":[]}\'\necho "first line" >&2\necho "settings.json is not valid JSON" >&2\nexit 3',
    );

    const { outcome, io } = runApiTurn(bin, { "claude-api": { apiKey: "k" } }, dir);

    expect(await outcome).toEqual({
      status: "error",
      error:
        "Claude Code exited with code 3 before it finished the turn (no result line).\nLast lines of its stderr:\nfirst line\nsettings.json is not valid JSON",
    });
    // The session id came before the failure: the next turn resumes it.
    expect(io.savedStates).toEqual([{ claudeSessionId: "s1", allowedTools: [] }]);
  });

  it("ends in error when the CLI cannot be started", async () => {
    const { bin, dir } = fakeCli("exit 0");
    const source = claudeProviderSource({ bin, env: {} });
    const worker = findProvider(
      source.providers({ "claude-api": { apiKey: "k" } }),
      "claude-api",
    ).startWorker(sessionOf(dir));
    rmSync(bin);

    const outcome = await worker?.runTurn(
      turnOf("Hello.", dir),
      createRecordingTurnIO({ clock: new FakeClock() }),
    );

    expect(outcome?.status).toBe("error");
    expect(outcome?.status === "error" && outcome.error).toMatch(
      /^Claude Code could not start: spawn .* ENOENT$/,
    );
  });

  it("refuses a claude-api turn when no API key is configured, without running the CLI", async () => {
    const { bin, dir } = fakeCli("touch ran; exit 0");

    const { outcome } = runApiTurn(bin, {}, dir);

    expect(await outcome).toEqual({ status: "error", error: CLAUDE_API_NOT_CONFIGURED });
    expect(existsSync(join(dir, "ran"))).toBe(false);
  });
});
