import type { CallOf } from "@oar/schema";
import type { ActionContext, ActionSuccess } from "./context";
import { gated } from "./gated";
import { refuseSelf, requireSession } from "./sessions";

/**
 * §22: archives the session. The relay never archives agent-started sessions by itself
 * (R-LOCAL-08): this action, the owner's archive and delete are the only ways.
 */
export async function archive(ctx: ActionContext, call: CallOf<"archive">): Promise<ActionSuccess> {
  refuseSelf(ctx, "archive", call.session);
  const session = await requireSession(ctx, call.session, { allowArchived: true });
  if (session.archivedAt !== null) {
    return {
      session: session.id,
      details: "already archived",
      fields: { session: session.id, archived: true, alreadyArchived: true },
    };
  }
  await gated(ctx, call, session);
  await ctx.deps.stores.sessions.archiveSession({ id: session.id, at: ctx.deps.clock.now() });
  return { session: session.id, details: "archived", fields: { session: session.id, archived: true } };
}
