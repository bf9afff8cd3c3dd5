import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RELAY_VERSION } from "../../src/version";
import { call, createNetwork, externalCaller, ownerSession, pair } from "./network";

const dataDirs: string[] = [];
afterAll(() => Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function dataDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `oar-fed-${name}-`));
  dataDirs.push(dir);
  return dir;
}

describe("pairings and unlocks are rows: they survive a restart (DESIGN §3, §8)", {
  timeout: 120_000,
}, () => {
  it("R-LOCK-03: pairings with their level, invites, the owner's and the agent's unlocks are back after both relays restart", async () => {
    const net = createNetwork();
    const [deskDir, boxDir] = await Promise.all([dataDir("desk"), dataDir("box")]);
    // Not kept open: the harness closes them at the end too, which is a no-op after this close.
    const [desk1, box1] = await Promise.all([
      net.relay("desk", { dataDir: deskDir }),
      net.relay("build-box", { dataDir: boxDir }),
    ]);
    await pair(desk1, box1, { level: "prompt" });
    await pair(box1, desk1);
    const deploy = await ownerSession(box1, "Deploy");
    const caller = await externalCaller(desk1, { mentions: "Deploy on build-box." });
    expect(
      await call(desk1, caller.token, {
        action: "send",
        relay: "build-box",
        session: deploy,
        text: "!reply first",
        wait_seconds: 30,
      }),
    ).toMatchObject({ ok: true, status: "done" });
    await Promise.all([desk1.relay.close(), box1.relay.close()]);

    const [desk, box] = await Promise.all([
      net.relay("desk", { dataDir: deskDir }),
      net.relay("build-box", { dataDir: boxDir }),
    ]);
    expect(await desk.ownerJson("GET", "/v1/owner/peers")).toEqual({
      peers: [
        {
          name: "build-box",
          url: "https://build-box.test",
          level: "prompt",
          online: true,
          version: RELAY_VERSION,
          problem: null,
        },
      ],
    });
    expect(await box.ownerJson("GET", "/v1/owner/peers")).toMatchObject({
      peers: [{ name: "desk", level: "full", online: true }],
    });
    // The owner's mention (R-LOCK-01(a)) is kept, and so is the level.
    expect(await call(desk, caller.token, { action: "list_relays" })).toMatchObject({
      relays: [{ name: "desk" }, { name: "build-box", permission: "prompt", unlocked: true }],
    });
    expect(
      await call(desk, caller.token, { action: "create_session", relay: "build-box", text: "hi" }),
    ).toMatchObject({ ok: false, code: "REMOTE_RELAY_PERMISSION" });
    // The invite build-box issued still opens its peer surface.
    expect(
      await call(desk, caller.token, {
        action: "send",
        relay: "build-box",
        session: deploy,
        text: "!reply second",
        wait_seconds: 30,
      }),
    ).toMatchObject({ ok: true, status: "done", reply: { text: "second" } });
    // The agent unlock on build-box (R-LOCK-01(b)) is kept too.
    expect(await call(box, await box.agentToken(deploy), { action: "list_relays" })).toMatchObject({
      relays: [{ name: "build-box" }, { name: "desk", unlocked: true }],
    });
  });
});
