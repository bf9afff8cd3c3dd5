import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { spawnRelay } from "./process";

const dataDir = await mkdtemp(join(tmpdir(), "oar-start-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function healthz(base: string) {
  const response = await fetch(`${base}/healthz`);
  return { status: response.status, body: (await response.json()) as { ok: boolean } };
}

describe("oar-relay start as a real process (DESIGN §3, §4)", { timeout: 60_000 }, () => {
  it("serves /healthz, refuses a second process on the same data directory, and survives kill -9", async () => {
    const first = spawnRelay({ RELAY_DATA_DIR: dataDir, RELAY_NAME: "desk" });
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
    const again = await third.listening;
    expect((await healthz(again)).body.ok).toBe(true);
    expect(third.output()).toContain(`owner token: ${token}`);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
  });

  it("names a bad variable and exits non-zero", async () => {
    const bad = spawnRelay({ RELAY_DATA_DIR: dataDir, RELAY_PORT: "70000" });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toContain("RELAY_PORT");
  });
});
