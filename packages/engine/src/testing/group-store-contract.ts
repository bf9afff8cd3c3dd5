import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { GroupStore, NewGroup } from "../ports/group-store";
import type { SessionStore } from "../ports/session-store";
import { newMessage, newSession } from "./fixtures";

/** Group membership is a column of the session, so the suite also needs the matching SessionStore. */
export interface GroupStoreFixture extends ContractFixture<GroupStore> {
  readonly sessions: SessionStore;
}

function group(id: string, overrides: Partial<NewGroup> = {}): NewGroup {
  return { id, name: `Group ${id}`, createdByAgent: false, createdAt: T0, ...overrides };
}

/** The behaviour every GroupStore must have. */
export function runGroupStoreContract(setup: ContractSetup<GroupStoreFixture>): void {
  describe("GroupStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const sessions = () => fixture().sessions;
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

    async function member(sessionId: string, groupId: string, at = T0) {
      await sessions().createSession(newSession(sessionId));
      const joined = await store().setSessionGroup({ sessionId, groupId, role: "member", at });
      expect(joined.ok).toBe(true);
    }

    it("creates a group and reads it back", async () => {
      await sessions().createSession(newSession("ses_head"));
      const created = await store().createGroup(
        group("grp_1", { name: "Release 2.4", createdByAgent: true, headSessionId: "ses_head" }),
      );
      expect(created).toEqual({
        id: "grp_1",
        name: "Release 2.4",
        createdByAgent: true,
        headSessionId: "ses_head",
        createdAt: T0,
        lastActiveAt: T0,
      });
      expect(await store().getGroup("grp_1")).toEqual(created);
      expect(await store().getGroup("grp_missing")).toBeNull();
      expect(await store().createGroup({ id: "grp_2", createdByAgent: true, createdAt: T0 })).toMatchObject({
        name: null,
        headSessionId: null,
      });
    });

    it("refuses a group whose id is stored (STORAGE), and the first stays", async () => {
      await store().createGroup(group("grp_1", { name: "First" }));
      await expect(store().createGroup(group("grp_1", { name: "Second" }))).rejects.toMatchObject({
        code: "STORAGE",
      });
      expect((await store().getGroup("grp_1"))?.name).toBe("First");
    });

    it("finds groups by id, or by name case-insensitively", async () => {
      await store().createGroup(group("grp_1", { name: "Release 2.4" }));
      await store().createGroup(group("grp_2", { name: "release 2.4" }));
      await store().createGroup(group("grp_3", { name: "Docs" }));
      expect(ids(await store().findGroups("grp_3"))).toEqual(["grp_3"]);
      expect(ids(await store().findGroups("RELEASE 2.4")).sort()).toEqual(["grp_1", "grp_2"]);
      expect(ids(await store().findGroups("docs"))).toEqual(["grp_3"]);
      expect(await store().findGroups("Relase")).toEqual([]);
      expect(await store().findGroups("GRP_3")).toEqual([]);
    });

    it("puts a session into a group with a role", async () => {
      await store().createGroup(group("grp_1"));
      await sessions().createSession(newSession("ses_1"));
      const joined = await store().setSessionGroup({
        sessionId: "ses_1",
        groupId: "grp_1",
        role: "head",
        at: T0 + 5,
      });
      expect(joined).toEqual({ ok: true, value: { previousGroupId: null, previousGroupDeleted: false } });
      expect((await sessions().getSession("ses_1"))?.group).toEqual({ id: "grp_1", role: "head" });
      expect((await store().getGroup("grp_1"))?.lastActiveAt).toBe(T0 + 5);
      expect(ids(await sessions().listSessions({ groupId: "grp_1" }))).toEqual(["ses_1"]);
    });

    it("refuses an unknown group or session", async () => {
      await store().createGroup(group("grp_1"));
      await sessions().createSession(newSession("ses_1"));
      expect(
        await store().setSessionGroup({ sessionId: "ses_1", groupId: "grp_x", role: "member", at: T0 }),
      ).toEqual({
        ok: false,
        error: "unknown_group",
      });
      expect(
        await store().setSessionGroup({ sessionId: "ses_x", groupId: "grp_1", role: "member", at: T0 }),
      ).toEqual({
        ok: false,
        error: "unknown_session",
      });
      expect(await store().clearSessionGroup({ sessionId: "ses_x", at: T0 })).toBeNull();
    });

    it("deletes an agent-created group that a move leaves empty", async () => {
      await store().createGroup(group("grp_agent", { createdByAgent: true }));
      await store().createGroup(group("grp_target"));
      await member("ses_1", "grp_agent");
      const moved = await store().setSessionGroup({
        sessionId: "ses_1",
        groupId: "grp_target",
        role: "member",
        at: T0,
      });
      expect(moved).toEqual({
        ok: true,
        value: { previousGroupId: "grp_agent", previousGroupDeleted: true },
      });
      expect(await store().getGroup("grp_agent")).toBeNull();
      expect(await store().findGroups("Group grp_agent")).toEqual([]);
    });

    it("keeps a user-created group that becomes empty", async () => {
      await store().createGroup(group("grp_user"));
      await member("ses_1", "grp_user");
      expect(await store().clearSessionGroup({ sessionId: "ses_1", at: T0 })).toEqual({
        previousGroupId: "grp_user",
        previousGroupDeleted: false,
      });
      expect((await sessions().getSession("ses_1"))?.group).toBeNull();
      expect(await store().getGroup("grp_user")).not.toBeNull();
      expect(await store().clearSessionGroup({ sessionId: "ses_1", at: T0 })).toEqual({
        previousGroupId: null,
        previousGroupDeleted: false,
      });
    });

    it("keeps an agent-created group while it has a session", async () => {
      await store().createGroup(group("grp_agent", { createdByAgent: true }));
      await member("ses_1", "grp_agent");
      await member("ses_2", "grp_agent");
      expect(await store().clearSessionGroup({ sessionId: "ses_1", at: T0 })).toMatchObject({
        previousGroupDeleted: false,
      });
      expect(await store().deleteGroupIfEmpty({ id: "grp_agent", at: T0 })).toBe(false);
      await sessions().deleteSession({ id: "ses_2", at: T0 });
      expect(await store().deleteGroupIfEmpty({ id: "grp_agent", at: T0 })).toBe(true);
      expect(await store().getGroup("grp_agent")).toBeNull();
    });

    it("never deletes a user-created group by emptiness", async () => {
      await store().createGroup(group("grp_user"));
      expect(await store().deleteGroupIfEmpty({ id: "grp_user", at: T0 })).toBe(false);
      expect(await store().getGroup("grp_user")).not.toBeNull();
      expect(await store().deleteGroupIfEmpty({ id: "grp_missing", at: T0 })).toBe(false);
    });

    it("counts archived members but not deleted ones", async () => {
      await store().createGroup(group("grp_1"));
      await member("ses_1", "grp_1");
      await member("ses_2", "grp_1");
      await member("ses_3", "grp_1");
      await sessions().archiveSession({ id: "ses_2", at: T0 });
      await sessions().deleteSession({ id: "ses_3", at: T0 });
      const { groups } = await store().listGroups();
      expect(groups.map((g) => [g.id, g.memberCount])).toEqual([["grp_1", 2]]);
    });

    it("lists groups with a session, most recently active first, with a limit and a total", async () => {
      await store().createGroup(group("grp_a"));
      await store().createGroup(group("grp_b"));
      await store().createGroup(group("grp_c"));
      await store().createGroup(group("grp_empty", { createdAt: T0 + 9000 }));
      await member("ses_a", "grp_a", T0 + 1000);
      await member("ses_b", "grp_b", T0 + 3000);
      await member("ses_c", "grp_c", T0 + 2000);

      const all = await store().listGroups();
      expect(ids(all.groups)).toEqual(["grp_b", "grp_c", "grp_a"]);
      expect(all.total).toBe(3);
      expect(all.groups[0]).toMatchObject({ id: "grp_b", memberCount: 1, lastActiveAt: T0 + 3000 });

      const limited = await store().listGroups({ limit: 2 });
      expect(ids(limited.groups)).toEqual(["grp_b", "grp_c"]);
      expect(limited.total).toBe(3);

      const withEmpty = await store().listGroups({ includeEmpty: true });
      expect(ids(withEmpty.groups)).toEqual(["grp_empty", "grp_b", "grp_c", "grp_a"]);
      expect(withEmpty.total).toBe(4);
      expect(withEmpty.groups[0]?.memberCount).toBe(0);
    });

    it("moves a group up when one of its sessions gets a message", async () => {
      await store().createGroup(group("grp_a"));
      await store().createGroup(group("grp_b"));
      await member("ses_a", "grp_a", T0 + 1000);
      await member("ses_b", "grp_b", T0 + 2000);
      await sessions().appendMessage(newMessage("msg_1", "ses_a", { createdAt: T0 + 3000 }));
      expect(ids((await store().listGroups()).groups)).toEqual(["grp_a", "grp_b"]);
      expect((await store().getGroup("grp_a"))?.lastActiveAt).toBe(T0 + 3000);
    });

    it("renames a group", async () => {
      await store().createGroup(group("grp_1", { name: null, createdByAgent: true }));
      expect(await store().renameGroup({ id: "grp_1", name: "Release 2.5" })).toMatchObject({
        name: "Release 2.5",
      });
      expect(ids(await store().findGroups("release 2.5"))).toEqual(["grp_1"]);
      expect(await store().renameGroup({ id: "grp_missing", name: "x" })).toBeNull();
    });

    it("dissolves a group: its sessions leave it and it is gone", async () => {
      await store().createGroup(group("grp_1", { name: "Release 2.4" }));
      await member("ses_1", "grp_1");
      expect(await store().dissolveGroup({ id: "grp_1", at: T0 + 1 })).toBe(true);
      expect((await sessions().getSession("ses_1"))?.group).toBeNull();
      expect(await store().getGroup("grp_1")).toBeNull();
      expect(await store().findGroups("Release 2.4")).toEqual([]);
      expect((await store().listGroups({ includeEmpty: true })).groups).toEqual([]);
      expect(await store().dissolveGroup({ id: "grp_1", at: T0 + 2 })).toBe(false);
      expect(
        await store().setSessionGroup({ sessionId: "ses_1", groupId: "grp_1", role: "member", at: T0 }),
      ).toEqual({
        ok: false,
        error: "unknown_group",
      });
    });
  });
}
