import type { CallOf } from "@oar/schema";
import { readableTasks, taskViewContext } from "../tasks/task-views";
import type { ActionContext, ActionSuccess } from "./context";
import { groupNamer } from "./groups";
import { sessionListEntry } from "./session-entry";
import { plural } from "./summary";

/** §11: the sessions of this relay in `scope` (active = not archived, the default; DESIGN GAP-06). */
export async function listSessions(
  ctx: ActionContext,
  call: CallOf<"list_sessions">,
): Promise<ActionSuccess> {
  const sessions = await ctx.deps.stores.sessions.listSessions({ scope: call.scope });
  const namer = groupNamer(ctx.deps);
  const [tasks, view] = await Promise.all([
    readableTasks(
      ctx.deps,
      sessions.map((session) => session.id),
    ),
    taskViewContext(ctx.deps, ctx.runtime),
  ]);
  const entries = await Promise.all(
    sessions.map((session) =>
      sessionListEntry(ctx, session, namer, { records: tasks.get(session.id) ?? [], view }),
    ),
  );
  return {
    details: `${plural(entries.length, "session")} (${call.scope})`,
    fields: { scope: call.scope, sessions: entries },
  };
}
