import { describe, expect, it } from "vitest";
import { ownerHarness, refusal } from "./harness";

describe("owner API: groups (DESIGN §4 /groups, R-CGRP-10)", () => {
  it("creates an owner group with its sessions, the first as head", async () => {
    const { owner, stores } = await ownerHarness();
    const a = await owner.createSession({ title: "A" });
    const b = await owner.createSession({ title: "B" });
    const group = await owner.createGroup({ name: " Release 2.4 ", sessions: [a.id, b.id, a.id] });
    expect(group).toMatchObject({ name: "Release 2.4", createdByAgent: false, headSessionId: a.id });
    expect((await stores.sessions.getSession(a.id))?.group).toEqual({ id: group.id, role: "head" });
    expect((await stores.sessions.getSession(b.id))?.group).toEqual({ id: group.id, role: "member" });
    expect(await owner.listGroups()).toEqual([expect.objectContaining({ id: group.id, memberCount: 2 })]);
  });

  it("refuses an unknown session and creates no group", async () => {
    const { owner } = await ownerHarness();
    await refusal(owner.createGroup({ name: "Ghosts", sessions: ["ses_missing"] }), "REMOTE_RELAY_NOT_FOUND");
    expect(await owner.listGroups()).toEqual([]);
  });

  it("R-UPD-17: lists empty owner groups, which stay when their last session leaves", async () => {
    const { owner } = await ownerHarness();
    const empty = await owner.createGroup({ name: "Later" });
    const session = await owner.createSession({ group: empty.id });
    await owner.patchSession(session.id, { group: null });
    expect(await owner.listGroups()).toEqual([
      expect.objectContaining({ id: empty.id, name: "Later", memberCount: 0 }),
    ]);
  });

  it("renames and dissolves; its sessions leave it; unknown ids are REMOTE_RELAY_NOT_FOUND", async () => {
    const { owner } = await ownerHarness();
    const group = await owner.createGroup({ name: "Old" });
    const session = await owner.createSession({ group: "old" });
    expect((await owner.renameGroup(group.id, "New")).name).toBe("New");
    await owner.dissolveGroup(group.id);
    expect(await owner.listGroups()).toEqual([]);
    expect((await owner.getSession(session.id)).group).toBeNull();
    await refusal(owner.renameGroup(group.id, "Again"), "REMOTE_RELAY_NOT_FOUND");
    await refusal(owner.dissolveGroup("grp_missing"), "REMOTE_RELAY_NOT_FOUND");
  });
});
