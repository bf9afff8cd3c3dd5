import type { CardDetails } from "@oar/permissions";
import type { SubscriptionRecord } from "@oar/scheduler";
import {
  type CallOf,
  LIMITS,
  type RelayToolCall,
  type Subscription,
  type SubscriptionEntry,
  SubscriptionEntrySchema,
  SubscriptionSchema,
} from "@oar/schema";
import type { ActionContext } from "../actions/context";
import { refuse } from "../actions/refusal";
import { requireSession } from "../actions/sessions";
import { subscriptionLimitMessage } from "../actions/subscriptions/subscribe";
import {
  refuseTransferFromItself,
  refuseTransferPastLimit,
} from "../actions/subscriptions/transfer-subscriptions";
import type { PeerRecord } from "../ports/peer-store";
import type { ToolResult } from "../ports/tool-result";

/** The subscription actions that, naming a paired relay, also change or read this relay's mirrors. */
export type SubscriptionCall =
  | CallOf<"subscribe">
  | CallOf<"unsubscribe">
  | CallOf<"list_subscriptions">
  | CallOf<"transfer_subscriptions">;

export function isSubscriptionCall(call: RelayToolCall): call is SubscriptionCall {
  return (
    call.action === "subscribe" ||
    call.action === "unsubscribe" ||
    call.action === "list_subscriptions" ||
    call.action === "transfer_subscriptions"
  );
}

/** Forwards the call (§28); `checks` run after the lock and level let it through, before any card. */
type Forward = (input: unknown, details?: CardDetails, checks?: () => Promise<void>) => Promise<ToolResult>;

/** The options applied here, where the watching agent is (R-PAIR-06), are not sent there. */
const APPLIED_HERE = ["digest_minutes", "quiet_hours", "once"] as const;

function withoutOptionsAppliedHere(input: unknown): Record<string, unknown> {
  const rest = { ...(input as Record<string, unknown>) };
  for (const key of APPLIED_HERE) {
    delete rest[key];
  }
  return rest;
}

/** A mirror as this conversation sees it: the other relay's subscription under this relay's id, with the options applied here. */
function mirrorView(remote: Subscription, mirror: SubscriptionRecord): Subscription {
  return {
    ...remote,
    id: mirror.id,
    once: mirror.once,
    ...(mirror.digestMinutes === null ? {} : { digestMinutes: mirror.digestMinutes }),
    ...(mirror.quietHours === null ? {} : { quietHours: mirror.quietHours }),
  };
}

/**
 * subscribe on a paired relay (§28): the other relay creates the subscription (its sessions,
 * events, `exclude`, stall and heartbeat) and keeps its events; this relay stores a mirror that
 * the poller fills with them, and applies the digest, quiet hours and `once` here (R-PAIR-06).
 * The result is the other relay's, under the mirror's id (`remoteSubscriptionId` names theirs).
 */
async function subscribeThere(
  ctx: ActionContext,
  peer: PeerRecord,
  call: CallOf<"subscribe">,
  input: unknown,
  forward: Forward,
): Promise<ToolResult> {
  const { stores, clock, ids } = ctx.deps;
  const limit = LIMITS.subscriptionsPerConversation;
  const held = await stores.subscriptions.countActiveSubscriptions(ctx.callerId);
  if (held >= limit) {
    refuse("REMOTE_RELAY_LIMIT", subscriptionLimitMessage(held));
  }
  // Card (b) names the options, those applied here included (R-FEW-24).
  const all = call.sessions.includes("all");
  const result = await forward(withoutOptionsAppliedHere(input), {
    subscription: {
      sessions: all ? "all" : new Set(call.sessions).size,
      ...(call.digest_minutes === undefined ? {} : { digestMinutes: call.digest_minutes }),
      ...(call.quiet_hours === undefined ? {} : { quietHours: call.quiet_hours }),
      ...(call.exclude === undefined ? {} : { excludeCount: call.exclude.length }),
    },
  });
  if (!result.ok) {
    return result;
  }
  const parsed = SubscriptionSchema.safeParse(result.subscription);
  if (!parsed.success) {
    return refuse(
      "REMOTE_RELAY_UNREACHABLE",
      `Relay "${peer.name}" answered subscribe without a subscription this relay can read, so no event of it will arrive here. Call unsubscribe on that relay with "all" to end what it may have created.`,
    );
  }
  const remote = parsed.data;
  const mirror = await stores.transaction((tx) =>
    tx.subscriptions.createSubscription({
      id: ids.next("subscription"),
      watcher: ctx.callerId,
      relay: peer.name,
      remoteId: remote.id,
      scope: remote.sessions === "all" ? "all" : "list",
      sessions: remote.sessions === "all" ? [] : remote.sessions.map((session) => session.id),
      exclude: remote.exclude ?? call.exclude ?? [],
      events: remote.events,
      once: call.once,
      // The other relay matched already; the link lines framing a replay contain no such text.
      match: null,
      stalledMinutes: remote.stalledMinutes,
      heartbeatMinutes: remote.heartbeatMinutes ?? null,
      digestMinutes: call.digest_minutes ?? null,
      quietHours: call.quiet_hours ?? null,
      createdAt: clock.now(),
      // Stalls and heartbeats are the other relay's ticks; they arrive as its events.
      nextTickAt: null,
    }),
  );
  const summary =
    typeof result.summary === "string" ? result.summary.replace(remote.id, mirror.id) : undefined;
  return {
    ...result,
    ...(summary === undefined ? {} : { summary }),
    subscription: mirrorView(remote, mirror),
    remoteSubscriptionId: remote.id,
  };
}

/** unsubscribe on a paired relay: ends the subscription there, and the mirror here (R-UNSUB-01). */
async function unsubscribeThere(
  ctx: ActionContext,
  peer: PeerRecord,
  call: CallOf<"unsubscribe">,
  input: unknown,
  forward: Forward,
): Promise<ToolResult> {
  const { stores, clock } = ctx.deps;
  const mirrors = (await stores.subscriptions.listMirrors({ relay: peer.name })).filter(
    (mirror) => mirror.watcher === ctx.callerId,
  );
  const id = call.subscription_id;
  const named =
    id === "all" ? undefined : mirrors.find((mirror) => mirror.id === id || mirror.remoteId === id);
  const result = await forward({
    ...(input as Record<string, unknown>),
    subscription_id: named?.remoteId ?? id,
  });
  // Ended there, or not known there any more: the mirror has nothing left to wait for.
  const endedThere = result.ok || result.code === "REMOTE_RELAY_NOT_FOUND";
  const ending = id === "all" ? mirrors : named === undefined ? [] : [named];
  if (!endedThere || ending.length === 0) {
    return result;
  }
  const at = clock.now();
  const ended = await stores.transaction(async (tx) => {
    const done = await tx.subscriptions.endSubscriptions({
      ids: ending.map((mirror) => mirror.id),
      reason: "unsubscribed",
      at,
    });
    for (const mirror of ending) {
      await tx.subscriptions.setMirrorState(mirror.id, { remoteEndedAt: at });
    }
    return done;
  });
  if (!result.ok) {
    return {
      ok: true,
      relay: peer.name,
      summary: `unsubscribe → ${peer.name}: ${ended.length} subscription${ended.length === 1 ? "" : "s"} ended`,
      ignored: [],
      ended,
      note: `Relay "${peer.name}" no longer held it (${String(result.error)}); it ended here.`,
    };
  }
  const theirs = new Map(ending.map((mirror) => [mirror.remoteId, mirror.id]));
  const endedThereIds = Array.isArray(result.ended) ? (result.ended as unknown[]) : [];
  return {
    ...result,
    ended: [
      ...new Set([
        ...endedThereIds.map((remoteId) => theirs.get(String(remoteId)) ?? String(remoteId)),
        ...ended,
      ]),
    ],
  };
}

/**
 * transfer_subscriptions on a paired relay (§28, §31): that relay moves what `from` (another
 * conversation of this relay) holds there to this conversation, after card (e) here; then the
 * mirrors here follow, with what their digests and quiet hours hold. The ids are the mirrors'.
 */
async function transferThere(
  ctx: ActionContext,
  peer: PeerRecord,
  call: CallOf<"transfer_subscriptions">,
  input: unknown,
  forward: Forward,
): Promise<ToolResult> {
  const { stores } = ctx.deps;
  let mirrors: SubscriptionRecord[] = [];
  const result = await forward(input, { transferFrom: call.from }, async () => {
    refuseTransferFromItself(ctx, call.from);
    await requireSession(ctx, call.from, { allowArchived: true, nothing: "Nothing was moved." });
    mirrors = (await stores.subscriptions.listMirrors({ relay: peer.name })).filter(
      (mirror) => mirror.watcher === call.from,
    );
    refuseTransferPastLimit(
      await stores.subscriptions.countActiveSubscriptions(ctx.callerId),
      mirrors.length,
      call.from,
    );
  });
  if (!result.ok) {
    return result;
  }
  const moved = await stores.transaction(async (tx) => {
    const ids = await tx.subscriptions.transferSubscriptions({
      from: call.from,
      to: ctx.callerId,
      watcherRelay: null,
      mirrorsOf: peer.name,
    });
    await tx.deliveries.moveWatcher({ from: call.from, to: ctx.callerId, subscriptionIds: ids });
    return ids;
  });
  const ours = new Map(mirrors.map((mirror) => [mirror.remoteId, mirror.id]));
  const movedThere = Array.isArray(result.transferred) ? (result.transferred as unknown[]).map(String) : [];
  const transferred = [...new Set([...movedThere.map((id) => ours.get(id) ?? id), ...moved])];
  return {
    ...result,
    summary: `transfer_subscriptions → ${peer.name}: ${transferred.length} subscription${transferred.length === 1 ? "" : "s"} from ${call.from}`,
    transferred,
  };
}

/** list_subscriptions on a paired relay: its list of this conversation's subscriptions there, under the mirrors' ids. */
async function listThere(ctx: ActionContext, peer: PeerRecord, forward: Forward, input: unknown) {
  const result = await forward(input);
  if (!result.ok || !Array.isArray(result.subscriptions)) {
    return result;
  }
  const mirrors = await ctx.deps.stores.subscriptions.listSubscriptions({
    watcher: ctx.callerId,
    endedSince: 0,
  });
  const byRemote = new Map(
    mirrors
      .filter((mirror) => mirror.relay === peer.name && mirror.remoteId !== null)
      .map((mirror) => [mirror.remoteId as string, mirror]),
  );
  const entries = (result.subscriptions as unknown[]).map((raw) => {
    const entry = SubscriptionEntrySchema.safeParse(raw);
    const mirror = entry.success ? byRemote.get(entry.data.id) : undefined;
    if (!entry.success || mirror === undefined) {
      return raw;
    }
    const view: SubscriptionEntry = {
      ...entry.data,
      ...mirrorView(entry.data, mirror),
    };
    return { ...view, remoteSubscriptionId: entry.data.id };
  });
  return { ...result, subscriptions: entries };
}

/**
 * The subscription actions naming a paired relay (§28): forwarded there like any call (the
 * lock, the level and card (b) first, R-PAIR-01), with this relay's mirrors kept in step.
 */
export function forwardSubscriptionCall(
  ctx: ActionContext,
  peer: PeerRecord,
  call: SubscriptionCall,
  input: unknown,
  forward: Forward,
): Promise<ToolResult> {
  switch (call.action) {
    case "subscribe":
      return subscribeThere(ctx, peer, call, input, forward);
    case "unsubscribe":
      return unsubscribeThere(ctx, peer, call, input, forward);
    case "list_subscriptions":
      return listThere(ctx, peer, forward, input);
    case "transfer_subscriptions":
      return transferThere(ctx, peer, call, input, forward);
  }
}
