import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OwnerSessionDetail } from "@oar/engine";
import { afterAll, describe, expect, it } from "vitest";
import { createTestRelay, eventually } from "./harness";

const dataDir = await mkdtemp(join(tmpdir(), "oar-restart-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe("restart over the same data directory (DESIGN §3, §8)", { timeout: 60_000 }, () => {
  it("brings sessions, messages, turns, groups, settings and agent tokens back", async () => {
    const first = await createTestRelay({ dataDir, keepOpen: true });
    const group = await first.ownerJson<{ id: string }>("POST", "/v1/owner/groups", { name: "Kept" });
    const { id } = await first.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
      title: "Survivor",
      group: "Kept",
      text: "!reply still here",
    });
    await eventually(async () => {
      const session = await first.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
      return session.turns[0]?.status === "done" ? session : undefined;
    });
    await first.ownerJson("PATCH", "/v1/owner/settings", { maxTurnSeconds: 900 });
    const token = await first.agentToken(id);
    const before = await first.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
    await first.relay.close();

    const second = await createTestRelay({ dataDir });
    const after = await second.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
    expect(after).toEqual(before);
    expect(after.messages.map((m) => m.text)).toEqual(["!reply still here", "still here"]);
    expect(after.group).toEqual({ id: group.id, role: "member" });
    expect(
      (await second.ownerJson<{ maxTurnSeconds: number }>("GET", "/v1/owner/settings")).maxTurnSeconds,
    ).toBe(900);
    const list = await second.tool(token, { action: "list_sessions", relay: "this" });
    expect(JSON.stringify(await list.json())).toContain("Survivor");
  });
});
