import { RelayError } from "@oar/core";
import type { OwnerCreateGroupBody } from "@oar/schema";
import type { GroupListItem, GroupRecord } from "../ports/group-store";
import { type OwnerContext, ownerChange, requireSession } from "./owner-context";

// The owner's sidebar shows every group, empty ones included (R-UPD-17: `group · empty`).
const OWNER_GROUPS_LIMIT = 10_000;

function noGroup(id: string): RelayError {
  return new RelayError("REMOTE_RELAY_NOT_FOUND", `No session group ${id} on this relay.`);
}

export async function listOwnerGroups(ctx: OwnerContext): Promise<GroupListItem[]> {
  const { groups } = await ctx.deps.stores.groups.listGroups({
    includeEmpty: true,
    limit: OWNER_GROUPS_LIMIT,
  });
  return groups;
}

/** An owner group: never deleted by itself (R-UPD-17). The first session named is its head. */
export async function createOwnerGroup(ctx: OwnerContext, body: OwnerCreateGroupBody): Promise<GroupRecord> {
  const { deps } = ctx;
  const members = [...new Set(body.sessions ?? [])];
  for (const sessionId of members) {
    await requireSession(ctx, sessionId);
  }
  const now = deps.clock.now();
  // The group and its members are one change: a member deleted meanwhile leaves no group behind.
  return ownerChange(ctx, async (tx) => {
    const { groups } = tx.deps.stores;
    const group = await groups.createGroup({
      id: deps.ids.next("group"),
      name: body.name.trim(),
      createdByAgent: false,
      headSessionId: members[0] ?? null,
      createdAt: now,
    });
    for (const [index, sessionId] of members.entries()) {
      const placed = await groups.setSessionGroup({
        sessionId,
        groupId: group.id,
        role: index === 0 ? "head" : "member",
        at: now,
      });
      // The group is new and live in this transaction: only the session can have gone.
      if (!placed.ok) {
        throw new RelayError(
          "REMOTE_RELAY_NOT_FOUND",
          `Session ${sessionId} was deleted just now, so it cannot join the group. No group was created.`,
        );
      }
    }
    return (await groups.getGroup(group.id)) ?? group;
  });
}

export async function renameOwnerGroup(ctx: OwnerContext, id: string, name: string): Promise<GroupRecord> {
  const renamed = await ctx.deps.stores.groups.renameGroup({ id, name: name.trim() });
  if (!renamed) {
    throw noGroup(id);
  }
  return renamed;
}

/** Dissolving is the owner's business (R-CGRP-10): its sessions leave it and it is gone. */
export async function dissolveOwnerGroup(ctx: OwnerContext, id: string): Promise<void> {
  if (!(await ctx.deps.stores.groups.dissolveGroup({ id, at: ctx.deps.clock.now() }))) {
    throw noGroup(id);
  }
}
