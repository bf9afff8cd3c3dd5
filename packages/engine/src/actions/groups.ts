import { type GroupInfo, type GroupRef, LIMITS } from "@oar/schema";
import type { EngineDeps } from "../ports/engine-deps";
import type { GroupRecord } from "../ports/group-store";
import type { SessionRecord } from "../ports/session-store";
import { refuse } from "./refusal";
import { shortId } from "./summary";

export interface GroupNamer {
  /** What the sidebar shows: the name, or for a group nobody named its head session's title (R-RINFO-04). */
  name(group: GroupRecord): Promise<string>;
  /** The session's group as list_sessions shows it (R-LSES-04), or null. */
  ref(session: SessionRecord): Promise<GroupRef | null>;
}

/** Names groups for one call, reading each group and head session once however many sessions share them. */
export function groupNamer(deps: EngineDeps): GroupNamer {
  const { groups, sessions } = deps.stores;
  const names = new Map<string, Promise<string>>();
  const records = new Map<string, Promise<GroupRecord | null>>();

  const nameOf = async (group: GroupRecord): Promise<string> => {
    if (group.name !== null) {
      return group.name;
    }
    const head = group.headSessionId === null ? null : await sessions.getSession(group.headSessionId);
    return head?.title ?? `group ${shortId(group.id)}`;
  };
  const name = (group: GroupRecord): Promise<string> => {
    let named = names.get(group.id);
    if (!named) {
      named = nameOf(group);
      names.set(group.id, named);
    }
    return named;
  };
  return {
    name,
    async ref(session) {
      if (session.group === null) {
        return null;
      }
      const { id, role } = session.group;
      let record = records.get(id);
      if (!record) {
        record = groups.getGroup(id);
        records.set(id, record);
      }
      const group = await record;
      return group ? { id, name: await name(group), role } : null;
    },
  };
}

/** Groups with a non-deleted session, most recently active first (R-RINFO-03 … R-RINFO-06). */
export async function listGroupInfos(
  deps: EngineDeps,
  options: { readonly limit: number; readonly includeEmpty?: boolean },
): Promise<{ readonly groups: GroupInfo[]; readonly total: number }> {
  const namer = groupNamer(deps);
  const listed = await deps.stores.groups.listGroups(options);
  const groups = await Promise.all(
    listed.groups.map(async (group) => ({
      id: group.id,
      name: await namer.name(group),
      memberCount: group.memberCount,
    })),
  );
  return { groups, total: listed.total };
}

/**
 * Groups a reference names: by exact id or by name in any case (R-CGRP-03), including a group
 * nobody named, which goes by its head session's title as relay_info lists it (R-RINFO-04).
 */
export async function findGroupsByRef(deps: EngineDeps, ref: string): Promise<GroupRecord[]> {
  const { groups } = deps.stores;
  const found = await groups.findGroups(ref);
  if (found.length > 0) {
    return found;
  }
  const namer = groupNamer(deps);
  const wanted = ref.toLowerCase();
  const listed = await groups.listGroups({ includeEmpty: true, limit: Number.MAX_SAFE_INTEGER });
  const unnamed = listed.groups.filter((group) => group.name === null);
  const names = await Promise.all(unnamed.map((group) => namer.name(group)));
  return unnamed.filter((_, index) => names[index]?.toLowerCase() === wanted);
}

function describeGroups(groups: readonly GroupInfo[]): string {
  return groups.length === 0 ? "none" : groups.map((group) => `${group.name} (${group.id})`).join(", ");
}

/**
 * R-CGRP-07(a), R-UPD-16: the relay has no group with that id or name. `error` and `groups` list
 * the groups there, up to 20, with `groupsTotal` when there are more.
 */
export async function refuseUnknownGroup(deps: EngineDeps, ref: string, nothing: string): Promise<never> {
  // Every group that could have been named, the owner's empty ones included (`group · empty`).
  const { groups, total } = await listGroupInfos(deps, { limit: LIMITS.errorGroupsMax, includeEmpty: true });
  const more = total > groups.length ? `, and ${total - groups.length} more` : "";
  return refuse(
    "REMOTE_RELAY_UNKNOWN_GROUP",
    `Relay "${deps.relay.name}" has no session group "${ref}". Groups there: ${describeGroups(groups)}${more}. ${nothing}`,
    total > groups.length ? { groups, groupsTotal: total } : { groups },
  );
}

/** R-CGRP-07(b), R-UPD-14: a name that matches several groups; the message ends `Pass the id.` */
export async function refuseAmbiguousGroup(
  deps: EngineDeps,
  ref: string,
  matches: readonly GroupRecord[],
): Promise<never> {
  const namer = groupNamer(deps);
  const listed = await deps.stores.groups.listGroups({ includeEmpty: true, limit: Number.MAX_SAFE_INTEGER });
  const counts = new Map(listed.groups.map((group) => [group.id, group.memberCount]));
  const groups = await Promise.all(
    matches.map(async (group) => ({
      id: group.id,
      name: await namer.name(group),
      memberCount: counts.get(group.id) ?? 0,
    })),
  );
  return refuse(
    "REMOTE_RELAY_UNKNOWN_GROUP",
    `Relay "${deps.relay.name}" has ${groups.length} session groups named "${ref}": ${describeGroups(groups)}. Pass the id.`,
    { groups },
  );
}

/**
 * One existing group, by id or by name in any case (R-CGRP-03); none, or a name that several
 * groups share, is REMOTE_RELAY_UNKNOWN_GROUP (R-CGRP-07 (a), (b)) ending with `nothing`.
 */
export async function findOneGroup(deps: EngineDeps, ref: string, nothing: string): Promise<GroupRecord> {
  const matches = await findGroupsByRef(deps, ref);
  const [only] = matches;
  if (only === undefined) {
    return refuseUnknownGroup(deps, ref, nothing);
  }
  if (matches.length > 1) {
    return refuseAmbiguousGroup(deps, ref, matches);
  }
  return only;
}
