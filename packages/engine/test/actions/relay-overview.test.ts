import { ListRelaysResultSchema, RelayInfoResultSchema, UsageResultSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { createTestProvider } from "../../src/testing";
import { createHarness } from "./harness";

describe("list_relays (§8)", () => {
  it("R-LREL-01/02/04/05: this relay first with self: true, and the limits", async () => {
    const h = await createHarness();
    const result = await h.ok({ action: "list_relays" });
    expect(ListRelaysResultSchema.parse(result)).toEqual({
      ok: true,
      relay: "desk",
      summary: "list_relays: 1 relay, 1 unlocked",
      self: { name: "desk" },
      relays: [
        { name: "desk", self: true, online: true, version: "0.1.0", permission: "full", unlocked: true },
      ],
      limits: { maxWaitSeconds: 600, maxActiveSessions: 4 },
    });
  });

  it("R-LREL-04, R-WST-02: maxWaitSeconds is the owner's longest wait", async () => {
    const h = await createHarness();
    await h.patchSettings({ agentSessions: { longestWaitSeconds: 1200 } });
    expect((await h.ok({ action: "list_relays" })).limits).toEqual({
      maxWaitSeconds: 1200,
      maxActiveSessions: 4,
    });
  });
});

describe("relay_info (§9)", () => {
  it("R-RINFO-01: name, version, platform, providers with models and efforts, folders, modes", async () => {
    const h = await createHarness({ allowedRoots: ["/srv", "/srv"] });
    h.clock.advance(1000);
    await h.ownerSession({ cwd: "/srv/api" });
    // Outside the allowed roots: not offered (DESIGN §7).
    await h.ownerSession({ cwd: "/etc" });
    const result = RelayInfoResultSchema.parse(await h.ok({ action: "relay_info", relay: "this" }));
    expect(result).toMatchObject({
      summary: "relay_info → desk: 1 provider, 0 groups",
      name: "desk",
      version: "0.1.0",
      platform: "linux-x64",
      acceptsPrompts: true,
      providers: [
        {
          id: "test",
          name: "Test provider",
          defaultModel: "test-1",
          models: ["test-1", "test-2"],
          efforts: ["low", "high"],
        },
      ],
      folders: { default: "/srv", recent: ["/srv/api", "/srv/app"] },
      modes: ["agent", "ask", "plan"],
      groups: [],
    });
    expect(result).not.toHaveProperty("groupsTotal");
  });

  it("DESIGN §5: a provider driven from outside is not offered for new sessions", async () => {
    const external = createTestProvider({
      info: { id: "external", label: "External", drivenFromOutside: true },
    });
    const h = await createHarness({ extraProviders: [external] });
    const result = await h.ok({ action: "relay_info", relay: "this" });
    expect((result.providers as { id: string }[]).map((p) => p.id)).toEqual(["test"]);
  });

  it("R-MDL-09: a provider without a model list shows none and says so in the note", async () => {
    const open = createTestProvider({ info: { id: "open", label: "Open", models: null } });
    const h = await createHarness({ extraProviders: [open] });
    const result = await h.ok({ action: "relay_info", relay: "this" });
    expect(result.providers).toContainEqual({
      id: "open",
      name: "Open",
      defaultModel: null,
      models: [],
      efforts: ["low", "high"],
    });
    expect(result.note).toContain("Open has no model list yet");
  });

  it("R-RINFO-03/04/05/07: groups with id, name (head's title when unnamed), memberCount, most recent first", async () => {
    const h = await createHarness();
    const head = await h.ownerSession({ title: "Release lead" });
    const a = await h.ownerSession();
    const b = await h.ownerSession();
    const named = await h.stores.groups.createGroup({
      id: "grp_named",
      name: "Release 2.4",
      createdByAgent: false,
      createdAt: h.clock.now(),
    });
    const unnamed = await h.stores.groups.createGroup({
      id: "grp_unnamed",
      createdByAgent: true,
      headSessionId: head.id,
      createdAt: h.clock.now(),
    });
    await h.stores.groups.setSessionGroup({
      sessionId: a.id,
      groupId: named.id,
      role: "member",
      at: h.clock.now() + 1,
    });
    await h.stores.groups.setSessionGroup({
      sessionId: b.id,
      groupId: named.id,
      role: "member",
      at: h.clock.now() + 1,
    });
    await h.stores.groups.setSessionGroup({
      sessionId: head.id,
      groupId: unnamed.id,
      role: "head",
      at: h.clock.now() + 2,
    });
    // An empty group is not listed (R-RINFO-06).
    await h.stores.groups.createGroup({
      id: "grp_empty",
      name: "Empty",
      createdByAgent: false,
      createdAt: h.clock.now(),
    });
    const result = await h.ok({ action: "relay_info", relay: "this" });
    expect(result.groups).toEqual([
      { id: "grp_unnamed", name: "Release lead", memberCount: 1 },
      { id: "grp_named", name: "Release 2.4", memberCount: 2 },
    ]);
  });

  it("R-RINFO-06: at most 50 groups, with groupsTotal when there are more", async () => {
    const h = await createHarness();
    for (let i = 0; i < 52; i++) {
      const session = await h.ownerSession();
      await h.stores.groups.createGroup({
        id: `grp_${i}`,
        name: `G${i}`,
        createdByAgent: false,
        createdAt: h.clock.now(),
      });
      await h.stores.groups.setSessionGroup({
        sessionId: session.id,
        groupId: `grp_${i}`,
        role: "head",
        at: h.clock.now() + i,
      });
    }
    const result = await h.ok({ action: "relay_info", relay: "this" });
    expect(result.groups).toHaveLength(50);
    expect(result.groupsTotal).toBe(52);
    expect((result.groups as { id: string }[])[0]?.id).toBe("grp_51");
  });
});

describe("usage (§10)", () => {
  it("R-USAGE-01/03/04: a status per provider; untracked providers say so, no account data", async () => {
    const h = await createHarness();
    const result = UsageResultSchema.parse(await h.ok({ action: "usage", relay: "this" }));
    expect(result).toEqual({
      ok: true,
      relay: "desk",
      summary: "usage → desk: 1 provider, 0 tracked",
      providers: [{ provider: "test", status: "not_tracked" }],
    });
  });
});
