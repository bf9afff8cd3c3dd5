import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pinnedCopilotBinary, processesWithEnv, startFakeAnthropic, text } from "@oar/providers/testing";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, OWNER_TOKEN } from "./harness";
import { ownerOk, type RelayProcess, spawnRelay, stopIfRunning } from "./process";
import type { SessionView } from "./support/served-relay";

describe("copilot's agent process and the relay's end (real relay process, real Copilot CLI)", {
  timeout: 90_000,
}, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup();
    }
  });

  it("kill -9 of the relay: the agent process it kept between turns ends with it (its stdio closes)", async () => {
    const root = await mkdtemp(join(tmpdir(), "oar-copilot-kill-"));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const work = join(root, "work");
    const home = join(root, "home");
    await mkdir(work);
    await mkdir(home);
    const fake = await startFakeAnthropic();
    cleanups.push(() => fake.close());
    fake.enqueue(text("Ready."));
    const mark = `OAR_COPILOT_KILL=${randomUUID()}`;
    const relay: RelayProcess = spawnRelay({
      RELAY_NAME: "desk",
      RELAY_OWNER_TOKEN: OWNER_TOKEN,
      RELAY_DATA_DIR: join(root, "data"),
      RELAY_ALLOWED_ROOTS: work,
      RELAY_COPILOT_BIN: pinnedCopilotBinary(),
      HOME: home,
      COPILOT_OFFLINE: "true",
      COPILOT_PROVIDER_BASE_URL: fake.url,
      COPILOT_PROVIDER_TYPE: "anthropic",
      COPILOT_PROVIDER_API_KEY: "test-key",
      COPILOT_MODEL: "claude-sonnet-4.5",
      COPILOT_AUTO_UPDATE: "false",
      [mark.split("=")[0] ?? ""]: mark.split("=")[1] ?? "",
    });
    cleanups.push(async () => {
      stopIfRunning(relay);
      await relay.exited;
      for (const pid of processesWithEnv(mark)) {
        process.kill(pid, "SIGKILL");
      }
    });
    const base = await relay.listening;
    const { id } = await ownerOk<SessionView>(base, "POST", "/v1/owner/sessions", {
      provider: "copilot",
      cwd: work,
      text: "Get ready.",
    });
    const session = await eventually(async () => {
      const view = await ownerOk<SessionView>(base, "GET", `/v1/owner/sessions/${id}`);
      return view.turns[0]?.status === "done" ? view : undefined;
    }, 30_000);
    expect(session.turns.map((turn) => [turn.status, turn.reply])).toEqual([["done", "Ready."]]);
    const relayPid = relay.child.pid ?? -1;
    // Kept for the next turn: npm's loader and the CLI it runs.
    expect(processesWithEnv(mark).filter((pid) => pid !== relayPid).length).toBeGreaterThan(0);

    relay.child.kill("SIGKILL");
    expect(await relay.exited).toBe("SIGKILL");

    await eventually(
      async () => (processesWithEnv(mark).filter((pid) => pid !== relayPid).length === 0 ? true : undefined),
      15_000,
    );
  });
});
