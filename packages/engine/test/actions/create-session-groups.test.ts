import { describe, expect, it } from "vitest";
import { withReplacedMethod } from "../../src/testing";
import type { Harness } from "./harness";
import { createHarness, refusal } from "./harness";

async function ownerGroup(h: Harness, id: string, name: string | null, members = 1) {
  const sessions = [];
  for (let i = 0; i < members; i++) {
    sessions.push(await h.ownerSession({ title: `${name ?? id} member ${i}` }));
  }
  const group = await h.stores.groups.createGroup({
    id,
    name,
    createdByAgent: false,
    headSessionId: sessions[0]?.id ?? null,
    createdAt: h.clock.now(),
  });
  for (const [i, session] of sessions.entries()) {
    await h.stores.groups.setSessionGroup({
      sessionId: session.id,
      groupId: id,
      role: i === 0 ? "head" : "member",
      at: h.clock.now(),
    });
  }
  return group;
}

describe("create_session: placing it in a group (§15.1)", () => {
  it("R-CGRP-01, R-UI-04: without group, a new agent group headed by the caller", async () => {
    const h = await createHarness();
    const first = await h.ok({ action: "create_session", relay: "this", text: "a" });
    const group = first.group as { id: string; name: string; role: string };
    expect(group).toMatchObject({ name: "Planner", role: "member" });
    expect((await h.session(h.caller.id)).group).toEqual({ id: group.id, role: "head" });
    expect(await h.stores.groups.getGroup(group.id)).toMatchObject({
      createdByAgent: true,
      headSessionId: h.caller.id,
      name: null,
    });
    // R-CGRP-01: the next one joins the caller's group.
    const second = await h.ok({ action: "create_session", relay: "this", text: "b" });
    expect(second.group).toEqual({ id: group.id, name: "Planner", role: "member" });
  });

  it("R-CGRP-01: a caller already in a group puts the new session there", async () => {
    const h = await createHarness();
    await ownerGroup(h, "grp_team", "Team");
    await h.stores.groups.setSessionGroup({
      sessionId: h.caller.id,
      groupId: "grp_team",
      role: "member",
      at: h.clock.now(),
    });
    const result = await h.ok({ action: "create_session", relay: "this", text: "a" });
    expect(result.group).toEqual({ id: "grp_team", name: "Team", role: "member" });
  });

  it("R-CGRP-03: an existing group by id, or by name in any case", async () => {
    const h = await createHarness();
    await ownerGroup(h, "grp_rel", "Release 2.4");
    const byName = await h.ok({ action: "create_session", relay: "this", text: "a", group: "release 2.4" });
    expect(byName.group).toEqual({ id: "grp_rel", name: "Release 2.4", role: "member" });
    const byId = await h.ok({ action: "create_session", relay: "this", text: "b", group: "grp_rel" });
    expect(byId.group).toEqual({ id: "grp_rel", name: "Release 2.4", role: "member" });
    // The caller stays where it was.
    expect((await h.session(h.caller.id)).group).toBeNull();
  });

  it("R-CGRP-03, R-RINFO-04: an unnamed group by the name relay_info lists (its head's title)", async () => {
    const h = await createHarness();
    await ownerGroup(h, "grp_anon", null);
    const result = await h.ok({
      action: "create_session",
      relay: "this",
      text: "a",
      group: "GRP_ANON member 0",
    });
    expect(result.group).toEqual({ id: "grp_anon", name: "grp_anon member 0", role: "member" });
  });

  it("R-CGRP-04: an empty group counts as none", async () => {
    const h = await createHarness();
    const result = await h.ok({ action: "create_session", relay: "this", text: "a", group: "" });
    expect(result.group).toMatchObject({ name: "Planner" });
  });

  it("R-CGRP-07(a): no such group → REMOTE_RELAY_UNKNOWN_GROUP listing the groups there; nothing created", async () => {
    const h = await createHarness();
    await ownerGroup(h, "grp_rel", "Release 2.4", 2);
    h.clock.advance(10);
    await ownerGroup(h, "grp_rev", "Review: server/");
    const before = await h.stores.sessions.listSessions({ scope: "all" });
    const result = await h.call({ action: "create_session", relay: "this", text: "a", group: "Relase" });
    expect(result).toEqual({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_GROUP",
      error:
        'Relay "desk" has no session group "Relase". Groups there: Review: server/ (grp_rev), Release 2.4 (grp_rel). No session was created.',
      groups: [
        { id: "grp_rev", name: "Review: server/", memberCount: 1 },
        { id: "grp_rel", name: "Release 2.4", memberCount: 2 },
      ],
    });
    expect(await h.stores.sessions.listSessions({ scope: "all" })).toHaveLength(before.length);
  });

  it("R-CGRP-07(a): with no group at all the message says none", async () => {
    const h = await createHarness();
    expect(
      refusal(await h.call({ action: "create_session", relay: "this", text: "a", group: "grp_x" })).error,
    ).toBe('Relay "desk" has no session group "grp_x". Groups there: none. No session was created.');
  });

  it("R-CGRP-07(a): at most 20 groups listed, with groupsTotal", async () => {
    const h = await createHarness();
    for (let i = 0; i < 23; i++) {
      await ownerGroup(h, `grp_${i}`, `G${i}`);
    }
    const result = await h.call({ action: "create_session", relay: "this", text: "a", group: "nope" });
    expect(result.groups).toHaveLength(20);
    expect(result.groupsTotal).toBe(23);
    expect(result.error).toMatch(/, and 3 more\. No session was created\.$/);
  });

  it("R-CGRP-07(b): a name of several groups → the groups of that name; the message ends `Pass the id.`", async () => {
    const h = await createHarness();
    await ownerGroup(h, "grp_a", "Release");
    await ownerGroup(h, "grp_b", "release", 2);
    await ownerGroup(h, "grp_c", "Other");
    const result = await h.call({ action: "create_session", relay: "this", text: "a", group: "RELEASE" });
    expect(result).toEqual({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_GROUP",
      error:
        'Relay "desk" has 2 session groups named "RELEASE": Release (grp_a), release (grp_b). Pass the id.',
      groups: [
        { id: "grp_a", name: "Release", memberCount: 1 },
        { id: "grp_b", name: "release", memberCount: 2 },
      ],
    });
  });

  it("R-CGRP-07(c): a group dissolved between the lookup and the start leaves nothing created", async () => {
    // Another writer dissolves the group in the create's own transaction, just before it joins.
    const h: Harness = await createHarness({
      engineStores: (stores) =>
        withReplacedMethod(stores, "groups.setSessionGroup", async ({ args, original, store }) => {
          await store.dissolveGroup({ id: "grp_rel", at: h.clock.now() });
          return original(...args);
        }),
    });
    await ownerGroup(h, "grp_rel", "Release");
    const before = (await h.stores.sessions.listSessions({ scope: "all" })).length;
    const result = refusal(
      await h.call({ action: "create_session", relay: "this", text: "a", group: "Release" }),
    );
    expect(result.code).toBe("REMOTE_RELAY_UNKNOWN_GROUP");
    expect(result.error).toMatch(/No session was created\.$/);
    expect(await h.stores.sessions.listSessions({ scope: "all" })).toHaveLength(before);
    expect(h.provider.prompts).toEqual([]);
  });
});
