import type { CallOf } from "@oar/schema";
import type { SessionPatch } from "../ports/session-store";
import { queueAgentPrompt } from "./agent-prompt";
import { billingSwitch } from "./billing";
import { type ActionSuccess, type CallerContext, changeAtomically } from "./context";
import { gated } from "./gated";
import { checkEffort, checkModel } from "./model-check";
import { providerOfSession, refuseDrivenFromOutside } from "./providers";
import { refuseFifthActive } from "./session-rules";
import { callerProvenance, refuseSelf, requireSession } from "./sessions";
import { waitForTurn } from "./waiting";

const NOTHING_SENT = "Nothing was sent.";

/**
 * §14: queues a prompt in another session of this relay and waits for the reply (§19). Every
 * check runs before anything is written, so a refused call sends nothing and changes nothing
 * (R-BILL-02). A busy session queues the prompt behind its current turn.
 */
export async function send(ctx: CallerContext, call: CallOf<"send">): Promise<ActionSuccess> {
  const relayName = ctx.deps.relay.name;
  refuseSelf(ctx, "send", call.session);
  const target = await requireSession(ctx, call.session, { allowArchived: false, nothing: NOTHING_SENT });
  const current = providerOfSession(ctx.deps, target, NOTHING_SENT);
  refuseDrivenFromOutside(current, target, NOTHING_SENT);
  // §14.1: the billing switch and the message are one call; the model is checked on the side the
  // prompt will run on (R-BILL-04: UNKNOWN_MODEL when the other side does not offer it).
  const billing = await billingSwitch(ctx, target, current, call.provider, NOTHING_SENT);
  const { provider } = billing;
  const model = call.model ?? (provider === current ? undefined : target.model);
  const { modelNote } =
    model === undefined
      ? {}
      : checkModel({ provider, model, relayName, providers: ctx.deps.providers, nothing: NOTHING_SENT });
  if (call.effort !== undefined) {
    checkEffort({ provider, effort: call.effort, nothing: NOTHING_SENT });
  }
  await refuseFifthActive(ctx, { target });
  // R-MDL-01: the card, if any, comes after the model check.
  await gated(ctx, call, target, billing.details);

  // R-SEND-05: without `mode` the prompt carries the caller's own mode, and either way that mode
  // replaces one set by update_session.
  const mode = call.mode ?? ctx.caller.mode;
  const patch: { -readonly [K in keyof SessionPatch]: SessionPatch[K] } = {};
  if (provider.id !== target.provider) {
    patch.provider = provider.id;
  }
  if (call.model !== undefined && call.model !== target.model) {
    patch.model = call.model;
  }
  if (call.effort !== undefined && call.effort !== target.effort) {
    patch.effort = call.effort;
  }
  if (mode !== target.mode) {
    patch.mode = mode;
  }

  const provenance = await callerProvenance(ctx);
  // The new settings, the prompt, the sender's unlock and the anti-loop count are one change.
  const turn = await changeAtomically(ctx, async (tx) => {
    if (Object.keys(patch).length > 0) {
      await tx.deps.stores.sessions.updateSession(target.id, patch);
    }
    return queueAgentPrompt(tx, call, { sessionId: target.id, provenance, mode });
  });
  ctx.runtime.kick(target.id);
  const waited = await waitForTurn(ctx, turn, call.wait_seconds);
  return {
    session: target.id,
    details: waited.fields.status,
    fields: { ...waited.fields, ...(modelNote === undefined ? {} : { modelNote }) },
    notes: waited.notes,
  };
}
