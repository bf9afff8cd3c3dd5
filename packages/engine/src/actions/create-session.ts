import type { CallOf, GroupRef } from "@oar/schema";
import type { GroupRecord } from "../ports/group-store";
import type { ProviderInfo } from "../ports/provider";
import type { SessionRecord } from "../ports/session-store";
import { queueAgentPrompt } from "./agent-prompt";
import { refuseUnavailable } from "./billing";
import { type ActionSuccess, type CallerContext, changeAtomically } from "./context";
import { findOneGroup, groupNamer, refuseUnknownGroup } from "./groups";
import { checkEffort, checkModel } from "./model-check";
import { defaultModel, findProvider, startableProviders, UNLISTED_MODEL } from "./providers";
import { refuse } from "./refusal";
import { placeSession } from "./session-place";
import { refuseFifthActive, refuseSecondLevel } from "./session-rules";
import { callerProvenance } from "./sessions";
import { waitForTurn } from "./waiting";

const NOTHING_CREATED = "Nothing was created.";
const NO_SESSION_CREATED = "No session was created.";
const TITLE_MAX = 60;

/** R-CRE-03: the caller's provider when the relay offers it to new sessions, else the first one. */
function chooseProvider(ctx: CallerContext, requested: string | undefined): ProviderInfo {
  const startable = startableProviders(ctx.deps);
  const offered = startable.map((info) => info.id).join(", ") || "none";
  if (requested !== undefined) {
    const info = findProvider(ctx.deps, requested)?.info;
    if (!info) {
      refuse(
        "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
        `Relay "${ctx.deps.relay.name}" has no provider "${requested}". Its providers: ${offered}. ${NOTHING_CREATED}`,
      );
    }
    if (info.drivenFromOutside) {
      refuse(
        "REMOTE_RELAY_INVALID_INPUT",
        `Provider "${requested}" is driven from outside the relay: its agent runs elsewhere, so a session on it cannot take a first prompt. Providers for new sessions: ${offered}. ${NOTHING_CREATED}`,
      );
    }
    return info;
  }
  const chosen = startable.find((info) => info.id === ctx.caller.provider) ?? startable[0];
  if (!chosen) {
    refuse(
      "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
      `Relay "${ctx.deps.relay.name}" has no provider that can start a session. ${NOTHING_CREATED}`,
    );
  }
  return chosen;
}

function chooseModel(
  ctx: CallerContext,
  provider: ProviderInfo,
  requested: string | undefined,
): { readonly model: string; readonly modelNote?: string } {
  const { caller } = ctx;
  const inherited = caller.model;
  const listed =
    inherited !== null &&
    (provider.models?.some((model) => model.id === inherited) ?? provider.id === caller.provider);
  const model =
    requested ??
    (listed && inherited !== null ? inherited : (defaultModel(provider) ?? inherited ?? UNLISTED_MODEL));
  return {
    model,
    ...checkModel({
      provider,
      model,
      relayName: ctx.deps.relay.name,
      providers: ctx.deps.providers,
      creates: true,
      nothing: NOTHING_CREATED,
    }),
  };
}

function chooseEffort(
  ctx: CallerContext,
  provider: ProviderInfo,
  requested: string | undefined,
): string | null {
  if (requested !== undefined) {
    checkEffort({ provider, effort: requested, nothing: NOTHING_CREATED });
    return requested;
  }
  const inherited = ctx.caller.effort;
  return inherited !== null && provider.efforts.includes(inherited) ? inherited : null;
}

function titleFromText(text: string): string {
  const firstLine = text.split(/\r?\n/).find((line) => line.trim() !== "") ?? text;
  const title = firstLine.trim().replace(/\s+/g, " ");
  return title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title;
}

interface Placement {
  readonly group: GroupRef | null;
  readonly warning?: string;
}

/**
 * R-CGRP-01: without `group` the new session joins the caller's group, or a new agent group is
 * made with the caller as its head (R-UI-04). Failing that, the session stays without a group and
 * the result says so (R-CGRP-08).
 */
async function placeWithCaller(ctx: CallerContext, session: SessionRecord): Promise<Placement> {
  const { groups } = ctx.deps.stores;
  const at = ctx.deps.clock.now();
  const namer = groupNamer(ctx.deps);
  if (ctx.caller.group !== null) {
    const joined = await groups.setSessionGroup({
      sessionId: session.id,
      groupId: ctx.caller.group.id,
      role: "member",
      at,
    });
    if (joined.ok) {
      return { group: await namer.ref({ ...session, group: { id: ctx.caller.group.id, role: "member" } }) };
    }
  }
  const group = await groups.createGroup({
    id: ctx.deps.ids.next("group"),
    createdByAgent: true,
    headSessionId: ctx.caller.id,
    createdAt: at,
  });
  const head = await groups.setSessionGroup({
    sessionId: ctx.caller.id,
    groupId: group.id,
    role: "head",
    at,
  });
  const member = await groups.setSessionGroup({
    sessionId: session.id,
    groupId: group.id,
    role: "member",
    at,
  });
  if (!head.ok || !member.ok) {
    await groups.deleteGroupIfEmpty({ id: group.id, at });
    const reason = head.ok ? (member.ok ? "" : member.error) : head.error;
    return {
      group: null,
      warning: `the session could not join a group under this conversation (${reason}); tell the user, who can move it by hand`,
    };
  }
  return { group: await namer.ref({ ...session, group: { id: group.id, role: "member" } }) };
}

/** R-CGRP-07(c): a group dissolved between the lookup and the start leaves nothing created. */
async function placeInGroup(
  ctx: CallerContext,
  session: SessionRecord,
  group: GroupRecord,
): Promise<Placement> {
  const at = ctx.deps.clock.now();
  const placed = await ctx.deps.stores.groups.setSessionGroup({
    sessionId: session.id,
    groupId: group.id,
    role: "member",
    at,
  });
  if (!placed.ok) {
    // Thrown inside the call's transaction: the session just created goes with it.
    return refuseUnknownGroup(ctx.deps, group.name ?? group.id, NO_SESSION_CREATED);
  }
  return { group: await groupNamer(ctx.deps).ref({ ...session, group: { id: group.id, role: "member" } }) };
}

/**
 * §15: starts a session on this relay with the caller's settings for whatever the call omits
 * (R-CRE-03), after the session rules (§5), the model check (§17) and the group lookup (§15.1),
 * then gives it its first prompt and waits (§19). The result adds what the session was started
 * with and its group (R-CRE-08, R-CRE-09).
 */
export async function createSession(
  ctx: CallerContext,
  call: CallOf<"create_session">,
): Promise<ActionSuccess> {
  const { caller, deps } = ctx;
  refuseSecondLevel(ctx);
  await refuseFifthActive(ctx, {});
  const provider = chooseProvider(ctx, call.provider);
  await refuseUnavailable(ctx, provider, "", NOTHING_CREATED);
  const { model, modelNote } = chooseModel(ctx, provider, call.model);
  const effort = chooseEffort(ctx, provider, call.effort);
  const mode = call.mode ?? caller.mode;
  const place = placeSession(ctx.deps, provider, call, caller, NOTHING_CREATED);
  const requestedGroup =
    call.group === undefined ? null : await findOneGroup(ctx.deps, call.group, NO_SESSION_CREATED);
  const title = call.title ?? titleFromText(call.text);
  // R-MDL-01, R-CGRP-05: the card comes after the model check and the group lookup, and names the group.
  await ctx.gate(call, {
    ...(requestedGroup === null
      ? {}
      : { details: { group: { id: requestedGroup.id, name: requestedGroup.name } } }),
  });

  const provenance = await callerProvenance(ctx);
  // The session, its group, its first prompt, the sender's unlock and the anti-loop count are one
  // change: a call that fails anywhere leaves no session behind.
  const { session, placement, turn } = await changeAtomically(ctx, async (tx) => {
    const session = await tx.deps.stores.sessions.createSession({
      id: deps.ids.next("session"),
      title,
      provider: provider.id,
      model,
      effort,
      mode,
      ...place,
      createdBy: tx.from,
      // R-UI-03: the `via agent · "title"` badge names the starting conversation.
      viaAgent: caller.title,
      createdAt: deps.clock.now(),
    });
    // R-CGRP-02: a session another relay's agent starts here goes into no group unless it named one.
    const placement =
      requestedGroup !== null
        ? await placeInGroup(tx, session, requestedGroup)
        : tx.peer
          ? { group: null }
          : await placeWithCaller(tx, session);
    const turn = await queueAgentPrompt(tx, call, { sessionId: session.id, provenance, mode });
    return { session, placement, turn };
  });
  ctx.runtime.kick(session.id);
  const waited = await waitForTurn(ctx, turn, call.wait_seconds);
  const noGroup = placement.warning === undefined ? "" : ` (no group: ${placement.warning})`;
  return {
    session: session.id,
    details: `${waited.fields.status}${noGroup}`,
    fields: {
      ...waited.fields,
      provider: provider.id,
      model,
      mode,
      effort,
      title,
      ...(place.repo === null ? {} : { repo: place.repo }),
      ...(place.branch === null ? {} : { branch: place.branch }),
      group: placement.group,
      ...(placement.warning === undefined ? {} : { groupWarning: placement.warning }),
      ...(modelNote === undefined ? {} : { modelNote }),
    },
    notes: [
      ...waited.notes,
      ...(placement.warning === undefined
        ? []
        : ["The session did not land in a group: tell the user, who can move it by hand."]),
    ],
  };
}
