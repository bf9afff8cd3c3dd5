import { err, ok } from "@oar/core";
import { refuseStoredKey, refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { GroupRecord, GroupStore, MembershipChange } from "../ports/group-store";
import type { SessionHistory } from "../ports/session-read-store";
import type {
  ConversationRef,
  MessageRecord,
  NewMessage,
  NewTurn,
  SessionRecord,
  SessionStore,
  TurnRecord,
  TurnRunner,
} from "../ports/session-store";

interface MemorySession extends SessionRecord {
  readonly deletedAt: number | null;
}

interface MemoryGroup extends GroupRecord {
  readonly dissolvedAt: number | null;
}

const ACTIVE_TURN = new Set(["queued", "running"]);

function runBy(turn: TurnRecord, runner: TurnRunner): boolean {
  return (
    turn.status === "running" && turn.runner?.lease === runner.lease && turn.runner.token === runner.token
  );
}

function sameConversation(a: ConversationRef | null, b: ConversationRef): boolean {
  return a !== null && a.relay === b.relay && a.session === b.session;
}

function publicSession({ deletedAt: _deletedAt, ...session }: MemorySession): SessionRecord {
  return session;
}

function publicGroup({ dissolvedAt: _dissolvedAt, ...group }: MemoryGroup): GroupRecord {
  return group;
}

/**
 * In-memory SessionStore and GroupStore sharing one state (membership is part of the session),
 * for tests of code that uses the ports. They pass the same contract suites as @oar/storage.
 */
export function createMemorySessionStores(): {
  sessions: SessionStore;
  groups: GroupStore;
  /** Whether the session exists and is not deleted, read without a store call (the tool-call store's join). */
  isLive(id: string): boolean;
  /** The read store's readSessionHistory, read without a store call: one moment, as the database's one statement. */
  history(id: string): SessionHistory | null;
} & Snapshotting {
  // Maps keep insertion order, which stands in for the database's sequence columns.
  const sessions = new Map<string, MemorySession>();
  const messages: MessageRecord[] = [];
  const turns = new Map<string, TurnRecord>();
  const groups = new Map<string, MemoryGroup>();

  const liveSession = (id: string) => {
    const session = sessions.get(id);
    return session && session.deletedAt === null ? session : undefined;
  };
  const liveGroup = (id: string) => {
    const group = groups.get(id);
    return group && group.dissolvedAt === null ? group : undefined;
  };
  const patchSession = (id: string, patch: Partial<MemorySession>) => {
    const current = liveSession(id);
    if (!current) {
      return null;
    }
    const next = { ...current, ...patch };
    sessions.set(id, next);
    return publicSession(next);
  };
  const memberCount = (groupId: string) =>
    [...sessions.values()].filter((s) => s.deletedAt === null && s.group?.id === groupId).length;
  const deleteIfEmpty = (id: string, at: number) => {
    const group = liveGroup(id);
    if (!group?.createdByAgent || memberCount(id) > 0) {
      return false;
    }
    groups.set(id, { ...group, dissolvedAt: at });
    return true;
  };
  const leaveGroup = (session: MemorySession, at: number, nextGroupId: string | null): MembershipChange => {
    const previousGroupId = session.group?.id ?? null;
    if (previousGroupId === null || previousGroupId === nextGroupId) {
      return { previousGroupId: null, previousGroupDeleted: false };
    }
    return { previousGroupId, previousGroupDeleted: deleteIfEmpty(previousGroupId, at) };
  };

  // What the databases' keys refuse: a row whose key is stored, a row of a session never stored.
  const refuseUnknownSession = (sessionId: string, constraint: string) => {
    if (!sessions.has(sessionId)) {
      throw new Error(`insert violates foreign key constraint "${constraint}" (no session ${sessionId})`);
    }
  };
  const refuseRows = <R extends { readonly id: string; readonly sessionId: string }>(
    rows: readonly R[],
    stored: (row: R) => boolean,
    constraint: string,
  ) => {
    const ids = new Set<string>();
    for (const row of rows) {
      refuseStoredKey(stored(row) || ids.has(row.id), constraint);
      refuseUnknownSession(row.sessionId, constraint.replace("_pkey", "_session_id_sessions_id_fk"));
      ids.add(row.id);
    }
  };

  const sessionStore: SessionStore = {
    async createSession(input) {
      refuseStoredKey(sessions.has(input.id), "sessions_pkey");
      const session: MemorySession = {
        id: input.id,
        title: input.title,
        provider: input.provider,
        model: input.model,
        effort: input.effort ?? null,
        mode: input.mode ?? "agent",
        cwd: input.cwd ?? null,
        repo: input.repo ?? null,
        branch: input.branch ?? null,
        state: "idle",
        createdBy: input.createdBy ?? null,
        viaAgent: input.viaAgent ?? null,
        mayCreateSessions: input.mayCreateSessions ?? false,
        group: null,
        settings: input.settings ?? {},
        providerState: null,
        createdAt: input.createdAt,
        lastActivityAt: input.createdAt,
        archivedAt: null,
        deletedAt: null,
      };
      sessions.set(session.id, session);
      return publicSession(session);
    },
    async getSession(id) {
      const session = liveSession(id);
      return session ? publicSession(session) : null;
    },
    async getSessions(ids) {
      return [...new Set(ids)].flatMap((id) => {
        const session = liveSession(id);
        return session ? [publicSession(session)] : [];
      });
    },
    async listSessions({ scope = "active", groupId, limit } = {}) {
      const listed = [...sessions.values()]
        .filter(
          (s) =>
            s.deletedAt === null &&
            (scope === "all" || (scope === "archived") === (s.archivedAt !== null)) &&
            (groupId === undefined || s.group?.id === groupId),
        )
        .sort((a, b) => b.lastActivityAt - a.lastActivityAt || b.createdAt - a.createdAt)
        .map((s) => ({
          ...publicSession(s),
          messageCount: messages.filter((m) => m.sessionId === s.id).length,
        }));
      return limit === undefined ? listed : listed.slice(0, limit);
    },
    async updateSession(id, patch) {
      return patchSession(id, patch);
    },
    // Transactions on memory stores run one at a time: nothing to wait for.
    async lockSession() {},
    async archiveSession({ id, at }) {
      return patchSession(id, { archivedAt: at });
    },
    async unarchiveSession(id) {
      return patchSession(id, { archivedAt: null });
    },
    async deleteSession({ id, at }) {
      return patchSession(id, { deletedAt: at }) !== null;
    },

    async appendMessage(input) {
      return appendMessage(input);
    },
    async appendMessages(inputs) {
      // One statement in the databases: all rows land, or none.
      refuseRows(inputs, (input) => messages.some((m) => m.id === input.id), "messages_pkey");
      return inputs.map(appendMessage);
    },
    async reviseMessages(revisions) {
      for (const { id, text } of revisions) {
        const at = messages.findIndex((m) => m.id === id);
        const message = messages[at];
        if (message !== undefined) {
          messages[at] = { ...message, text };
        }
      }
    },
    async listMessages(sessionId, { last } = {}) {
      const all = messages.filter((m) => m.sessionId === sessionId);
      return last === undefined ? all : all.slice(Math.max(0, all.length - last));
    },

    async enqueueTurn(input) {
      return enqueueTurn(input);
    },
    async enqueueTurns(inputs) {
      refuseRows(inputs, (input) => turns.has(input.id), "turns_pkey");
      return inputs.map(enqueueTurn);
    },
    async markTurnOutput({ id, at }) {
      const turn = turns.get(id);
      if (turn?.status === "running") {
        turns.set(id, { ...turn, lastOutputAt: Math.max(turn.lastOutputAt ?? at, at) });
      }
    },
    async getTurn(id) {
      return turns.get(id) ?? null;
    },
    async claimNextTurn({ sessionId, now, runner }) {
      const ofSession = [...turns.values()].filter((t) => t.sessionId === sessionId);
      const next = ofSession.find((t) => t.status === "queued");
      if (!next || ofSession.some((t) => t.status === "running")) {
        return null;
      }
      const claimed: TurnRecord = { ...next, status: "running", startedAt: now, runner: runner ?? null };
      turns.set(claimed.id, claimed);
      return claimed;
    },
    async finishTurn({ turnId, status, reply, error, endedAt, replyMessageId, runner }) {
      const turn = turns.get(turnId);
      if (!turn || !ACTIVE_TURN.has(turn.status) || (runner !== undefined && !runBy(turn, runner))) {
        return null;
      }
      const finished: TurnRecord = { ...turn, status, reply: reply ?? null, error: error ?? null, endedAt };
      turns.set(turnId, finished);
      if (replyMessageId !== undefined && reply) {
        appendMessage({
          id: replyMessageId,
          sessionId: turn.sessionId,
          turnId,
          role: "assistant",
          text: reply,
          createdAt: endedAt,
        });
      }
      return finished;
    },
    async listActiveTurns({ sessionId } = {}) {
      return [...turns.values()].filter(
        (t) => ACTIVE_TURN.has(t.status) && (sessionId === undefined || t.sessionId === sessionId),
      );
    },
    async countActiveSessionsCreatedBy(conversation) {
      const busy = new Set(
        [...turns.values()].filter((t) => ACTIVE_TURN.has(t.status)).map((t) => t.sessionId),
      );
      return [...sessions.values()].filter(
        (s) => s.deletedAt === null && sameConversation(s.createdBy, conversation) && busy.has(s.id),
      ).length;
    },
    async failRunningTurns({ error, endedAt, runner }) {
      const failed: TurnRecord[] = [];
      for (const turn of turns.values()) {
        if (turn.status === "running" && (runner === undefined || (turn.runner?.lease ?? null) === runner)) {
          const record: TurnRecord = { ...turn, status: "error", error, endedAt };
          turns.set(turn.id, record);
          failed.push(record);
        }
      }
      return failed;
    },
    async getMessage(id) {
      return messages.find((m) => m.id === id) ?? null;
    },
    async findTurnByPromptMessage(messageId) {
      return [...turns.values()].find((t) => t.promptMessageId === messageId) ?? null;
    },
  };

  const groupStore: GroupStore = {
    async createGroup(input) {
      refuseStoredKey(groups.has(input.id), "session_groups_pkey");
      const group: MemoryGroup = {
        id: input.id,
        name: input.name ?? null,
        createdByAgent: input.createdByAgent,
        headSessionId: input.headSessionId ?? null,
        createdAt: input.createdAt,
        lastActiveAt: input.createdAt,
        dissolvedAt: null,
      };
      groups.set(group.id, group);
      return publicGroup(group);
    },
    async getGroup(id) {
      const group = liveGroup(id);
      return group ? publicGroup(group) : null;
    },
    async findGroups(ref) {
      const name = ref.toLowerCase();
      return [...groups.values()]
        .filter((g) => g.dissolvedAt === null && (g.id === ref || g.name?.toLowerCase() === name))
        .map(publicGroup);
    },
    async listGroups({ limit = 50, includeEmpty = false } = {}) {
      const listed = [...groups.values()]
        .filter((g) => g.dissolvedAt === null)
        .map((g) => ({ ...publicGroup(g), memberCount: memberCount(g.id) }))
        .filter((g) => includeEmpty || g.memberCount > 0)
        .sort((a, b) => b.lastActiveAt - a.lastActiveAt || b.createdAt - a.createdAt);
      return { groups: listed.slice(0, limit), total: listed.length };
    },
    async renameGroup({ id, name }) {
      const group = liveGroup(id);
      if (!group) {
        return null;
      }
      const renamed = { ...group, name };
      groups.set(id, renamed);
      return publicGroup(renamed);
    },
    async dissolveGroup({ id, at }) {
      const group = liveGroup(id);
      if (!group) {
        return false;
      }
      for (const session of sessions.values()) {
        if (session.group?.id === id) {
          sessions.set(session.id, { ...session, group: null });
        }
      }
      groups.set(id, { ...group, dissolvedAt: at });
      return true;
    },
    async setSessionGroup({ sessionId, groupId, role, at }) {
      const group = liveGroup(groupId);
      if (!group) {
        return err("unknown_group");
      }
      const session = liveSession(sessionId);
      if (!session) {
        return err("unknown_session");
      }
      sessions.set(sessionId, { ...session, group: { id: groupId, role } });
      groups.set(groupId, { ...group, lastActiveAt: Math.max(group.lastActiveAt, at) });
      return ok(leaveGroup(session, at, groupId));
    },
    async clearSessionGroup({ sessionId, at }) {
      const session = liveSession(sessionId);
      if (!session) {
        return null;
      }
      sessions.set(sessionId, { ...session, group: null });
      return leaveGroup(session, at, null);
    },
    async deleteGroupIfEmpty({ id, at }) {
      return deleteIfEmpty(id, at);
    },
  };

  const enqueueTurn = (input: NewTurn): TurnRecord => {
    refuseStoredKey(turns.has(input.id), "turns_pkey");
    refuseUnknownSession(input.sessionId, "turns_session_id_sessions_id_fk");
    const turn: TurnRecord = {
      id: input.id,
      sessionId: input.sessionId,
      status: "queued",
      runner: null,
      promptMessageId: input.promptMessageId ?? null,
      origin: input.origin,
      reply: null,
      error: null,
      queuedAt: input.queuedAt,
      startedAt: null,
      endedAt: null,
      lastOutputAt: null,
    };
    turns.set(turn.id, turn);
    return turn;
  };

  const appendMessage = (input: NewMessage): MessageRecord => {
    refuseStoredKey(
      messages.some((m) => m.id === input.id),
      "messages_pkey",
    );
    refuseUnknownSession(input.sessionId, "messages_session_id_sessions_id_fk");
    const message: MessageRecord = {
      id: input.id,
      sessionId: input.sessionId,
      turnId: input.turnId ?? null,
      role: input.role,
      text: input.text,
      provenance: input.provenance ?? null,
      createdAt: input.createdAt,
    };
    messages.push(message);
    const session = sessions.get(input.sessionId);
    if (session) {
      sessions.set(session.id, {
        ...session,
        lastActivityAt: Math.max(session.lastActivityAt, input.createdAt),
      });
      const group = session.group ? groups.get(session.group.id) : undefined;
      if (group) {
        groups.set(group.id, { ...group, lastActiveAt: Math.max(group.lastActiveAt, input.createdAt) });
      }
    }
    return message;
  };

  return {
    sessions: refusingLikePostgres("SessionStore", sessionStore),
    groups: refusingLikePostgres("GroupStore", groupStore),
    snapshot: () => snapshotOf(sessions, messages, turns, groups),
    isLive: (id) => liveSession(id) !== undefined,
    history(id) {
      const session = liveSession(id);
      if (session === undefined) {
        return null;
      }
      const own = messages.filter((m) => m.sessionId === id);
      const answered = new Set(own.flatMap((m) => (m.turnId === null ? [] : [m.turnId])));
      const prompts = new Set(own.filter((m) => m.role === "user" && m.turnId === null).map((m) => m.id));
      const shown = [...turns.values()].filter(
        (t) =>
          t.sessionId === id &&
          (ACTIVE_TURN.has(t.status) ||
            answered.has(t.id) ||
            (t.promptMessageId !== null && prompts.has(t.promptMessageId))),
      );
      // A stable sort: turns queued at one instant keep the order they were queued in.
      shown.sort((a, b) => a.queuedAt - b.queuedAt);
      return { session: publicSession(session), messages: own, turns: shown };
    },
  };
}
