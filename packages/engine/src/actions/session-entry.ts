import { toIso } from "@oar/core";
import type { GroupRef, SessionListEntry } from "@oar/schema";
import type { SessionListItem } from "../ports/session-store";
import type { TaskRecord } from "../ports/task-store";
import { type TaskViewContext, taskSummary } from "../tasks/task-views";
import type { ActionContext } from "./context";
import { sessionState } from "./sessions";

/** A repository session's `repo` and `branch` (R-CRE-08), as list_sessions and read_session show them. */
export function repositoryOf(session: { readonly repo: string | null; readonly branch: string | null }): {
  repo?: string;
  branch?: string;
} {
  return {
    ...(session.repo === null ? {} : { repo: session.repo }),
    ...(session.branch === null ? {} : { branch: session.branch }),
  };
}

/** A session as list_sessions shows it (DESIGN GAP-06, R-LSES-01 … R-LSES-07). */
export function sessionListEntry(
  ctx: ActionContext,
  session: SessionListItem,
  group: GroupRef | null,
  tasks: { readonly records: readonly TaskRecord[]; readonly view: TaskViewContext },
): SessionListEntry {
  return {
    id: session.id,
    title: session.title,
    provider: session.provider,
    model: session.model,
    state: sessionState(session, ctx.runtime),
    cwd: session.cwd,
    ...repositoryOf(session),
    lastActivityAt: toIso(session.lastActivityAt),
    messageCount: session.messageCount,
    tasks: tasks.records.map((task) => taskSummary(task, tasks.view)),
    ...(group ? { group } : {}),
    ...(session.createdBy !== null && session.viaAgent !== null
      ? { viaAgent: { id: session.createdBy.session, title: session.viaAgent } }
      : {}),
    ...(session.mayCreateSessions ? { mayCreateSessions: true } : {}),
    ...(session.archivedAt !== null ? { archived: true } : {}),
  };
}
