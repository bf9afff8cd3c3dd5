import type { CallOf } from "@oar/schema";
import { recordSessionGone } from "../outbox/outbox";
import { type ActionContext, type ActionSuccess, changeAtomically } from "./context";
import { gated } from "./gated";
import { discardSessionFiles } from "./session-place";
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
  const at = ctx.deps.clock.now();
  // The archive, its event and the subscriptions it ends are one change (R-SLIFE-02 (b)).
  await changeAtomically(ctx, async (tx) => {
    const { stores, ids, relay } = tx.deps;
    await stores.sessions.archiveSession({ id: session.id, at });
    await recordSessionGone({ stores, ids, relayName: relay.name }, session, "archived", at);
  });
  // An archived session runs nothing in the background, and keeps no clone.
  await ctx.runtime.endTasks(session.id);
  await discardSessionFiles(ctx.deps, ctx.runtime, session);
  return { session: session.id, details: "archived", fields: { session: session.id, archived: true } };
}
