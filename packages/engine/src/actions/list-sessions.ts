import { groupBy } from "@oar/core";
import type { CallOf } from "@oar/schema";
import { readableSince, taskViewContext } from "../tasks/task-views";
import type { ActionContext, ActionSuccess } from "./context";
import { groupNamer } from "./groups";
import { sessionListEntry } from "./session-entry";
import { plural } from "./summary";

/** §11: the sessions of this relay in `scope` (active = not archived, the default; DESIGN GAP-06). */
export async function listSessions(
  ctx: ActionContext,
  call: CallOf<"list_sessions">,
): Promise<ActionSuccess> {
  const namer = groupNamer(ctx.deps);
  const [{ sessions, tasks: listed }, view] = await Promise.all([
    ctx.deps.stores.reads.listSessions({ scope: call.scope, tasksEndedSince: readableSince(ctx.deps) }),
    taskViewContext(ctx.deps, ctx.runtime),
  ]);
  const tasks = groupBy(listed, (task) => task.sessionId);
  // Only grouped sessions wait for their group's name; the rest are built at once (a hundred
  // sessions were a hundred promises per call).
  const groups = new Map(
    await Promise.all(
      sessions
        .filter((session) => session.group !== null)
        .map(async (session) => [session.id, await namer.ref(session)] as const),
    ),
  );
  const entries = sessions.map((session) =>
    sessionListEntry(ctx, session, groups.get(session.id) ?? null, {
      records: tasks.get(session.id) ?? [],
      view,
    }),
  );
  return {
    details: `${plural(entries.length, "session")} (${call.scope})`,
    fields: { scope: call.scope, sessions: entries },
  };
}
