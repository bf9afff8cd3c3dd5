import type { Result } from "@oar/core";
import type { GroupRole } from "@oar/schema";

export interface GroupRecord {
  readonly id: string;
  /** Groups an agent starts by creating sessions may have no name yet. */
  readonly name: string | null;
  /** Agent-created groups disappear when empty; the owner's never do (R-UPD-17, R-UPD-18). */
  readonly createdByAgent: boolean;
  readonly headSessionId: string | null;
  readonly createdAt: number;
  readonly lastActiveAt: number;
}

export interface GroupListItem extends GroupRecord {
  /** Non-deleted sessions in the group, archived ones included. */
  readonly memberCount: number;
}

export interface NewGroup {
  readonly id: string;
  readonly name?: string | null;
  readonly createdByAgent: boolean;
  readonly headSessionId?: string | null;
  readonly createdAt: number;
}

export interface ListGroupsOptions {
  /** Default 50 (relay_info's cap, R-RINFO-06). */
  readonly limit?: number;
  /** Also list groups with no session, as the owner's sidebar does (`group · empty`). */
  readonly includeEmpty?: boolean;
}

export interface MembershipChange {
  /** The group the session was in before, when it changed groups. */
  readonly previousGroupId: string | null;
  /** That previous group was agent-created and became empty, so it is gone. */
  readonly previousGroupDeleted: boolean;
}

export type MembershipError = "unknown_group" | "unknown_session";

/** Session groups. Dissolved and deleted groups are gone for every read. */
export interface GroupStore {
  createGroup(input: NewGroup): Promise<GroupRecord>;
  getGroup(id: string): Promise<GroupRecord | null>;
  /** By exact id, or by name case-insensitively; a name may match several groups (R-CGRP-03, R-CGRP-07). */
  findGroups(ref: string): Promise<GroupRecord[]>;
  /** Most recently active first; `total` counts every group that matched before the limit. */
  listGroups(
    options?: ListGroupsOptions,
  ): Promise<{ readonly groups: GroupListItem[]; readonly total: number }>;
  renameGroup(input: { readonly id: string; readonly name: string | null }): Promise<GroupRecord | null>;
  /** The owner dissolves a group: its sessions leave it and it is gone. */
  dissolveGroup(input: { readonly id: string; readonly at: number }): Promise<boolean>;
  /**
   * Puts the session into the group with that role (moving it out of its previous group, which
   * is deleted when agent-created and now empty). Refused when the group or session is gone.
   */
  setSessionGroup(input: {
    readonly sessionId: string;
    readonly groupId: string;
    readonly role: GroupRole;
    readonly at: number;
  }): Promise<Result<MembershipChange, MembershipError>>;
  /** Takes the session out of its group (`group: "none"`, GAP-08); `null` for an unknown session. */
  clearSessionGroup(input: {
    readonly sessionId: string;
    readonly at: number;
  }): Promise<MembershipChange | null>;
  /** Deletes the group if it is agent-created and has no non-deleted session; never a user-created one. */
  deleteGroupIfEmpty(input: { readonly id: string; readonly at: number }): Promise<boolean>;
}
