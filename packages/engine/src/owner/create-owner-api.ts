import { offeredProviders } from "../actions/providers";
import { createEngineLive, type EngineLive } from "../live/engine-live";
import { createEventHints, type EventHints } from "../outbox/event-hints";
import type { EngineDeps } from "../ports/engine-deps";
import type { ProviderCatalog } from "../provider-catalog";
import type { SessionRuntime } from "../runtime/session-runtime";
import { patchOwnerSettings, readOwnerSettings } from "../settings/settings";
import type { OwnerApi } from "./owner-api";
import { answerOwnerCard, listOwnerCards } from "./owner-cards";
import { compactOwnerSession } from "./owner-compact";
import type { OwnerContext } from "./owner-context";
import { createOwnerGroup, dissolveOwnerGroup, listOwnerGroups, renameOwnerGroup } from "./owner-groups";
import { answerOwnerInbox, listOwnerInbox } from "./owner-inbox";
import { createOwnerPeer, listOwnerPeers, patchOwnerPeer, removeOwnerPeer } from "./owner-peers";
import { cancelOwnerSchedule } from "./owner-schedules";
import {
  archiveOwnerSession,
  createOwnerSession,
  deleteOwnerSession,
  killOwnerSession,
  listOwnerSessions,
  patchOwnerSession,
  postOwnerMessage,
} from "./owner-sessions";
import { unsubscribeOwner } from "./owner-subscriptions";
import { issueOwnerAgentToken, issueOwnerInvite, listOwnerInvites, revokeOwnerInvite } from "./owner-tokens";
import { sessionDetail } from "./session-views";

/**
 * The owner's verbs (DESIGN §4 owner surface) over the engine's stores and session runtime.
 * Refusals are RelayErrors with wire codes: NOT_FOUND for an unknown id, INVALID_INPUT for a bad value.
 */
export function createOwnerApi(
  deps: EngineDeps,
  runtime: SessionRuntime,
  live: EngineLive = createEngineLive({ clock: deps.clock }),
  hints: EventHints = createEventHints(),
  catalog?: ProviderCatalog,
): OwnerApi {
  const ctx: OwnerContext = { deps, runtime, live };
  // The verbs that name providers see those the settings define now, not a second ago.
  const fresh =
    <A extends unknown[], R>(verb: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await catalog?.refresh();
      return verb(...args);
    };
  return {
    createSession: fresh((body) => createOwnerSession(ctx, body)),
    listSessions: (options) => listOwnerSessions(ctx, options?.scope),
    getSession: (id) => sessionDetail(ctx, id),
    patchSession: fresh((id, body) => patchOwnerSession(ctx, id, body)),
    postMessage: fresh((id, text) => postOwnerMessage(ctx, id, text)),
    archiveSession: (id) => archiveOwnerSession(ctx, id),
    compactSession: (id) => compactOwnerSession(ctx, id),
    killSession: (id) => killOwnerSession(ctx, id),
    deleteSession: (id) => deleteOwnerSession(ctx, id),
    getSettings: () => readOwnerSettings(deps),
    patchSettings: async (patch) => {
      const settings = await patchOwnerSettings(deps, patch, catalog?.checkEntries);
      await catalog?.refresh();
      return settings;
    },
    listGroups: () => listOwnerGroups(ctx),
    createGroup: (body) => createOwnerGroup(ctx, body),
    renameGroup: (id, name) => renameOwnerGroup(ctx, id, name),
    dissolveGroup: (id) => dissolveOwnerGroup(ctx, id),
    listCards: (options) => listOwnerCards(ctx, options?.status),
    answerCard: (id, body) => answerOwnerCard(ctx, id, body),
    listInbox: (options) => listOwnerInbox(ctx, options),
    cancelSchedule: (id) => cancelOwnerSchedule(ctx, id),
    unsubscribe: (id) => unsubscribeOwner(ctx, id),
    listProviders: fresh(async () => offeredProviders(deps)),
    answerInbox: (id, body) => answerOwnerInbox(ctx, id, body),
    issueAgentToken: (sessionId) => issueOwnerAgentToken(ctx, sessionId),
    createPeer: (body) => createOwnerPeer(ctx, body),
    listPeers: () => listOwnerPeers(ctx),
    issueInvite: () => issueOwnerInvite(ctx),
    listInvites: () => listOwnerInvites(ctx),
    revokeInvite: (id) => revokeOwnerInvite(ctx, id),
    patchPeer: (name, body) => patchOwnerPeer(ctx, name, body),
    removePeer: (name) => removeOwnerPeer(ctx, name),
    listEvents: (options) => deps.stores.events.listEvents(options),
    lastEventSeq: () => deps.stores.events.lastEventSeq(),
    onEvents: (listener) => hints.listen(listener),
  };
}
