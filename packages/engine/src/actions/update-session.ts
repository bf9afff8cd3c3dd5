import type { UpdateChanges } from "@oar/permissions";
import {
  type CallOf,
  type GroupRef,
  LEAVE_GROUP,
  type SessionSettings,
  UPDATE_SESSION_SETTINGS,
  type UpdateSessionSetting,
} from "@oar/schema";
import type { GroupRecord } from "../ports/group-store";
import type { JsonObject, JsonValue } from "../ports/json";
import type { ProviderInfo } from "../ports/provider";
import type { SessionPatch, SessionRecord } from "../ports/session-store";
import { type ActionContext, type ActionSuccess, changeAtomically } from "./context";
import { checkFolder } from "./folders";
import { findGroupsByRef, groupNamer, refuseAmbiguousGroup, refuseUnknownGroup } from "./groups";
import { checkEffort, checkModel } from "./model-check";
import { providerOfSession } from "./providers";
import { refuse } from "./refusal";
import { refuseFolderOfRepository } from "./session-place";
import { refuseSelf, requireSession, startedByCaller } from "./sessions";

const NOTHING_CHANGED = "Nothing was changed.";
/** Settings kept in the session's `settings` object for providers that use them (R-UPD-07). */
const PROVIDER_SETTINGS = ["auto_compact_window", "thinking_enabled", "thinking_display"] as const;
// A reference that looks like a group id names a group that must exist (R-UPD-16); any other
// unknown name makes a new group (R-UPD-15).
const GROUP_ID = /^grp_/i;

type GroupPlan =
  | { readonly kind: "leave" }
  | { readonly kind: "join"; readonly group: GroupRecord }
  | { readonly kind: "create"; readonly name: string };

/** Where `group` takes the session; `null` when it is where it should be already. */
async function planGroup(ctx: ActionContext, session: SessionRecord, ref: string): Promise<GroupPlan | null> {
  if (ref === LEAVE_GROUP) {
    return session.group === null ? null : { kind: "leave" };
  }
  const matches = await findGroupsByRef(ctx.deps, ref);
  const [only] = matches;
  if (matches.length > 1) {
    return refuseAmbiguousGroup(ctx.deps, ref, matches);
  }
  if (only !== undefined) {
    return only.id === session.group?.id ? null : { kind: "join", group: only };
  }
  if (GROUP_ID.test(ref)) {
    return refuseUnknownGroup(ctx.deps, ref, NOTHING_CHANGED);
  }
  return { kind: "create", name: ref };
}

/** Applies the group move; R-UPD-17/18 (which empty groups disappear) are the store's rule. */
async function applyGroup(
  ctx: ActionContext,
  session: SessionRecord,
  plan: GroupPlan,
): Promise<{ readonly groupCreated?: { readonly id: string; readonly name: string } }> {
  const { groups } = ctx.deps.stores;
  const at = ctx.deps.clock.now();
  if (plan.kind === "leave") {
    await groups.clearSessionGroup({ sessionId: session.id, at });
    return {};
  }
  if (plan.kind === "join") {
    const joined = await groups.setSessionGroup({
      sessionId: session.id,
      groupId: plan.group.id,
      role: "member",
      at,
    });
    if (!joined.ok) {
      // Dissolved since the lookup: nothing has been written yet.
      return refuseUnknownGroup(ctx.deps, plan.group.name ?? plan.group.id, NOTHING_CHANGED);
    }
    return {};
  }
  const group = await groups.createGroup({
    id: ctx.deps.ids.next("group"),
    name: plan.name,
    createdByAgent: true,
    headSessionId: session.id,
    createdAt: at,
  });
  await groups.setSessionGroup({ sessionId: session.id, groupId: group.id, role: "head", at });
  return { groupCreated: { id: group.id, name: plan.name } };
}

interface ProviderSettings {
  readonly auto_compact_window: "auto" | number | null;
  readonly thinking_enabled: boolean | null;
  readonly thinking_display: string | null;
}

function providerSettingsOf(settings: JsonObject): ProviderSettings {
  const window = settings.auto_compact_window;
  const thinking = settings.thinking_enabled;
  const display = settings.thinking_display;
  return {
    auto_compact_window: window === "auto" || typeof window === "number" ? window : null,
    thinking_enabled: typeof thinking === "boolean" ? thinking : null,
    thinking_display: typeof display === "string" ? display : null,
  };
}

async function settingsView(ctx: ActionContext, session: SessionRecord): Promise<SessionSettings> {
  const group: GroupRef | null = await groupNamer(ctx.deps).ref(session);
  return {
    model: session.model,
    effort: session.effort,
    mode: session.mode,
    title: session.title,
    group,
    cwd: session.cwd,
    ...providerSettingsOf(session.settings),
  };
}

/**
 * R-UPD-07/08: what the agent must know about the window and thinking it set: on a provider where
 * they take effect nothing, else which of them change nothing there, and what `0` stands for.
 */
function providerSettingsNotes(provider: ProviderInfo, call: CallOf<"update_session">): string[] {
  const named = PROVIDER_SETTINGS.filter((setting) => call[setting] !== undefined);
  if (named.length === 0) {
    return [];
  }
  const applies = provider.sessionSettings;
  if (applies === undefined) {
    return [
      `${named.join(", ")} apply only to Claude sessions (Claude API included): kept in the session's settings, they change nothing for provider "${provider.id}".`,
    ];
  }
  const notes: string[] = [];
  const window = applies.window;
  if (call.auto_compact_window !== undefined && window === false) {
    notes.push(`auto_compact_window changes nothing for provider "${provider.id}".`);
  } else if (call.auto_compact_window === 0 && typeof window === "object") {
    notes.push(
      `auto_compact_window 0 means ${window.zeroMeansTokens.toLocaleString("en-US")} tokens for provider "${provider.id}".`,
    );
  }
  const thinkingNamed = named.filter((setting) => setting !== "auto_compact_window");
  if (thinkingNamed.length > 0 && applies.thinking !== true) {
    const verb = thinkingNamed.length === 1 ? "does" : "do";
    notes.push(
      `${thinkingNamed.join(" and ")} ${verb} not take effect for provider "${provider.id}": ${applies.thinking}`,
    );
  }
  return notes;
}

type RowSetting = "model" | "effort" | "mode" | "title" | "cwd";
type RowPatch = { -readonly [K in RowSetting]?: SessionRecord[K] };

/** What the call changes on the session's row: the settings that differ, and the patch writing them. */
function rowChanges(
  target: SessionRecord,
  call: CallOf<"update_session">,
  cwd: string | undefined,
): { readonly patch: SessionPatch; readonly changed: Set<UpdateSessionSetting> } {
  const patch: RowPatch = {};
  const changed = new Set<UpdateSessionSetting>();
  const set = <K extends RowSetting>(key: K, value: SessionRecord[K] | undefined) => {
    if (value !== undefined && value !== target[key]) {
      patch[key] = value;
      changed.add(key);
    }
  };
  set("model", call.model);
  set("effort", call.effort);
  set("mode", call.mode);
  set("title", call.title);
  set("cwd", cwd);

  const current = providerSettingsOf(target.settings);
  const settings: Record<string, JsonValue> = { ...target.settings };
  for (const key of PROVIDER_SETTINGS) {
    const value = call[key];
    if (value !== undefined && value !== current[key]) {
      settings[key] = value;
      changed.add(key);
    }
  }
  const settingsChanged = PROVIDER_SETTINGS.some((key) => changed.has(key));
  return { patch: { ...patch, ...(settingsChanged ? { settings } : {}) }, changed };
}

/** What the approval card shows (R-UPD-10): the settings that change, in update_session's order. */
function cardChanges(
  call: CallOf<"update_session">,
  changed: ReadonlySet<UpdateSessionSetting>,
  cwd: string | undefined,
  groupPlan: GroupPlan | null,
): UpdateChanges {
  const has = (setting: UpdateSessionSetting) => changed.has(setting);
  const group: UpdateChanges["group"] =
    groupPlan === null
      ? undefined
      : groupPlan.kind === "leave"
        ? "none"
        : groupPlan.kind === "join"
          ? { id: groupPlan.group.id, name: groupPlan.group.name }
          : { id: null, name: groupPlan.name };
  const thinking = call.thinking_enabled;
  return {
    ...(has("model") && call.model !== undefined ? { model: call.model } : {}),
    ...(has("effort") && call.effort !== undefined ? { effort: call.effort } : {}),
    ...(has("mode") && call.mode !== undefined ? { mode: call.mode } : {}),
    ...(has("title") && call.title !== undefined ? { title: call.title } : {}),
    ...(group === undefined ? {} : { group }),
    ...(has("cwd") && cwd !== undefined ? { cwd } : {}),
    ...(has("auto_compact_window") && call.auto_compact_window !== undefined
      ? { auto_compact_window: call.auto_compact_window }
      : {}),
    ...(has("thinking_enabled") && thinking !== undefined ? { thinking_enabled: thinking } : {}),
    ...(has("thinking_display") && call.thinking_display !== undefined
      ? { thinking_display: call.thinking_display }
      : {}),
  };
}

/**
 * §16: changes the settings of a session this conversation started, for its next turns, without
 * a prompt. The whole call is checked first — model, effort, group, folder, busy — and nothing is
 * written when any part is refused (R-UPD-13, R-UPD-14); a call that would change nothing returns
 * `changed: []` (R-UPD-06). Sessions this conversation did not start need the owner's approval
 * on an approval card after those checks (R-UPD-10/12), on the relay of the calling conversation.
 */
export async function updateSession(
  ctx: ActionContext,
  call: CallOf<"update_session">,
): Promise<ActionSuccess> {
  const relayName = ctx.deps.relay.name;
  refuseSelf(ctx, "update_session", call.session);
  const target = await requireSession(ctx, call.session, { allowArchived: false, nothing: NOTHING_CHANGED });
  const provider = providerOfSession(ctx.deps, target, NOTHING_CHANGED);
  const { modelNote } =
    call.model === undefined
      ? {}
      : checkModel({
          provider,
          model: call.model,
          relayName,
          providers: ctx.deps.providers,
          nothing: NOTHING_CHANGED,
        });
  if (call.effort !== undefined) {
    checkEffort({ provider, effort: call.effort, nothing: NOTHING_CHANGED });
  }
  if (call.cwd !== undefined) {
    refuseFolderOfRepository(provider, target, NOTHING_CHANGED);
  }
  const cwd = call.cwd === undefined ? undefined : checkFolder(ctx.deps, call.cwd, NOTHING_CHANGED);
  const groupPlan = call.group === undefined ? null : await planGroup(ctx, target, call.group);

  const { patch, changed } = rowChanges(target, call, cwd);
  if (groupPlan !== null) {
    changed.add("group");
  }

  if (changed.has("cwd")) {
    const active = await ctx.deps.stores.sessions.listActiveTurns({ sessionId: target.id });
    if (active.length > 0) {
      refuse(
        "REMOTE_RELAY_BUSY",
        `The session cannot move to another folder now: a turn is ${active.some((turn) => turn.status === "running") ? "running" : "queued"} there. ${NOTHING_CHANGED}`,
      );
    }
  }
  const notes = providerSettingsNotes(provider, call);
  const order = UPDATE_SESSION_SETTINGS.filter((setting) => changed.has(setting));
  if (order.length === 0) {
    return {
      session: target.id,
      details: "nothing to change",
      fields: {
        session: target.id,
        settings: await settingsView(ctx, target),
        changed: [],
        ...(modelNote === undefined ? {} : { modelNote }),
      },
      notes,
    };
  }
  // R-UPD-10/12: another session's change asks once per conversation and relay, ask/plan every time.
  await ctx.gate(call, {
    target: {
      id: target.id,
      title: target.title,
      startedByCaller: startedByCaller(ctx, target),
      busy: false,
    },
    details: { changes: cardChanges(call, changed, cwd, groupPlan) },
  });

  // The group and the settings are one change: a group dissolved meanwhile refuses the whole call.
  const { groupCreated, updated } = await changeAtomically(ctx, async (tx) => {
    const { groupCreated } = groupPlan === null ? {} : await applyGroup(tx, target, groupPlan);
    const { sessions } = tx.deps.stores;
    // Read back either way: the group move changed the row too.
    const updated =
      Object.keys(patch).length > 0
        ? await sessions.updateSession(target.id, patch)
        : await sessions.getSession(target.id);
    return { groupCreated, updated };
  });
  // R-UPD-19: a new folder restarts the session's agent there; no turn runs (checked above).
  if (changed.has("cwd")) {
    await ctx.runtime.killWorker(target.id);
  }
  return {
    session: target.id,
    details: order.join(", "),
    fields: {
      session: target.id,
      settings: await settingsView(ctx, updated ?? target),
      changed: order,
      ...(changed.has("cwd") ? { relaunched: true } : {}),
      ...(groupCreated === undefined ? {} : { groupCreated }),
      ...(modelNote === undefined ? {} : { modelNote }),
    },
    notes,
  };
}
