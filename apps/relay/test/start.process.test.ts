import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OwnerSessionDetail } from "@oar/engine";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { ownerCall, spawnRelay, stopIfRunning } from "./process";

const dataDir = await mkdtemp(join(tmpdir(), "oar-start-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function healthz(base: string) {
  const response = await fetch(`${base}/healthz`);
  return { status: response.status, body: (await response.json()) as { ok: boolean } };
}

describe("oar-relay start as a real process (DESIGN §3, §4)", { timeout: 60_000 }, () => {
  it("serves /healthz, refuses a second process on the same data directory, and survives kill -9", async () => {
    const first = spawnRelay({ RELAY_DATA_DIR: dataDir, RELAY_NAME: "desk" });
    onTestFinished(() => stopIfRunning(first));
    const base = await first.listening;
    expect(await healthz(base)).toEqual({ status: 200, body: { ok: true, name: "desk", version: "0.1.0" } });
    const token = /owner token: (\S+)/.exec(first.output())?.[1];
    expect(token).toMatch(/^oar_owner_/);

    const second = spawnRelay({ RELAY_DATA_DIR: dataDir, RELAY_NAME: "desk" });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by process ${first.child.pid}`);

    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");

    // The dead process's lock is stale: a new relay takes the directory over and keeps its token.
    const third = spawnRelay({ RELAY_DATA_DIR: dataDir, RELAY_NAME: "desk" });
    onTestFinished(() => stopIfRunning(third));
    const again = await third.listening;
    expect((await healthz(again)).body.ok).toBe(true);
    expect(third.output()).toContain(`owner token: ${token}`);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
  });

  it("a turn cut off by kill -9 is `error` with a clear message after restart; the rest is back (DESIGN §5, §8)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oar-kill-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const env = { RELAY_DATA_DIR: dir, RELAY_NAME: "desk", RELAY_OWNER_TOKEN: "owner-token-for-kill-test" };
    const token = env.RELAY_OWNER_TOKEN;
    const first = spawnRelay(env);
    onTestFinished(() => stopIfRunning(first));
    const base = await first.listening;
    for (let i = 0; !first.output().includes("MCP:"); i++) {
      expect(i).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(first.output()).toContain(`MCP: ${base}/mcp`);
    expect(first.output()).toContain(`POST ${base}/v1/tool`);
    const created = await ownerCall<OwnerSessionDetail>(base, token, {
      method: "POST",
      path: "/v1/owner/sessions",
      body: { title: "Long job", text: "!sleep 60000\n!reply never" },
    });
    expect(created.status).toBe(200);
    const { id } = created.body;
    const session = () =>
      ownerCall<OwnerSessionDetail>(base, token, { method: "GET", path: `/v1/owner/sessions/${id}` });
    for (let i = 0; (await session()).body.turns[0]?.status !== "running"; i++) {
      expect(i).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    first.child.kill("SIGKILL");
    expect(await first.exited).toBe("SIGKILL");

    const second = spawnRelay(env);
    onTestFinished(() => stopIfRunning(second));
    const again = await second.listening;
    const after = await ownerCall<OwnerSessionDetail>(again, token, {
      method: "GET",
      path: `/v1/owner/sessions/${id}`,
    });
    expect(after.body.title).toBe("Long job");
    expect(after.body.messages.map((m) => m.text)).toEqual(["!sleep 60000\n!reply never"]);
    expect(after.body.turns).toEqual([
      expect.objectContaining({ status: "error", error: "The relay restarted while this turn was running." }),
    ]);
    expect(after.body.state).toBe("idle");
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("names a bad variable and exits non-zero", async () => {
    const bad = spawnRelay({ RELAY_DATA_DIR: dataDir, RELAY_PORT: "70000" });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain("RELAY_PORT");
  });
});
