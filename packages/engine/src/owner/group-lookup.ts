import { RelayError } from "@oar/core";
import { type GroupInfo, LIMITS } from "@oar/schema";
import type { GroupListItem, GroupRecord, GroupStore } from "../ports/group-store";

function label(group: GroupRecord): string {
  return `${group.name ?? "(unnamed)"} (${group.id})`;
}

function info(group: GroupListItem): GroupInfo {
  return { id: group.id, name: group.name ?? "", memberCount: group.memberCount };
}

export interface GroupLookup {
  readonly relay: string;
  /** How the refusal ends: "No session was created." / "Nothing was changed." */
  readonly outcome: string;
}

/**
 * An existing group by id, or by name case-insensitively (R-CGRP-03). None, or a name that
 * matches several, is REMOTE_RELAY_UNKNOWN_GROUP listing the groups there (R-CGRP-07): up to
 * 20, with `groupsTotal` when there are more.
 */
export async function findGroup(groups: GroupStore, ref: string, lookup: GroupLookup): Promise<GroupRecord> {
  const found = await groups.findGroups(ref);
  const [only] = found;
  if (only && found.length === 1) {
    return only;
  }
  const { groups: all, total } = await groups.listGroups({ includeEmpty: true, limit: 10_000 });
  if (found.length > 1) {
    const ids = new Set(found.map((g) => g.id));
    const named = all.filter((g) => ids.has(g.id));
    throw new RelayError(
      "REMOTE_RELAY_UNKNOWN_GROUP",
      `Relay "${lookup.relay}" has ${found.length} session groups named "${ref}": ${found.map(label).join(", ")}. ${lookup.outcome} Pass the id.`,
      { context: { groups: named.map(info) } },
    );
  }
  const shown = all.slice(0, LIMITS.errorGroupsMax);
  const more = total > shown.length;
  const there =
    shown.length > 0
      ? `${shown.map(label).join(", ")}${more ? `, and ${total - shown.length} more` : ""}`
      : "none";
  throw new RelayError(
    "REMOTE_RELAY_UNKNOWN_GROUP",
    `Relay "${lookup.relay}" has no session group "${ref}". Groups there: ${there}. ${lookup.outcome}`,
    { context: { groups: shown.map(info), ...(more ? { groupsTotal: total } : {}) } },
  );
}
