import { silentLogger } from "@oar/core";
import { relayToolOffered } from "@oar/permissions";
import { cachedStores } from "./cached-stores";
import { executeCall } from "./calls/execute";
import { executeFromPeer } from "./calls/from-peer";
import type { Engine } from "./engine";
import { createEngineLive } from "./live/engine-live";
import { createEventHints } from "./outbox/event-hints";
import { createOwnerApi } from "./owner/create-owner-api";
import { createQuestionPoller } from "./peers/question-poller";
import { peerSubscriptionEvents } from "./peers/subscription-events";
import type { EngineDeps } from "./ports/engine-deps";
import { silentObserver } from "./ports/engine-observer";
import type { AgentAccess } from "./ports/provider";
import { createProviderCatalog } from "./provider-catalog";
import { peerQuestion } from "./questions/peer-question";
import { createPruner } from "./retention/pruner";
import { resolveRetention } from "./retention/resolve-retention";
import { createSessionRuntime } from "./runtime/create-session-runtime";
import { findProvider } from "./runtime/worker-pool";
import { createScheduleRunner } from "./schedules/schedule-runner";
import { readSettings } from "./settings/settings";
import { errorMessage } from "./shared/error-message";
import { authenticate, bindInvite, issueToken } from "./tokens/token-verbs";
import { addUsage } from "./usage/provider-usage";
import { createDispatcher } from "./watching/dispatcher";
import { createRemoteEventsPoller } from "./watching/remote-events";

/**
 * The action engine over the given stores and providers: relay_tool calls (`execute`), the
 * owner's verbs (`owner`), the session runtime that runs every session's turns, and the event
 * dispatcher that wakes watchers. Call `start()` once the stores are open (it recovers after a
 * restart) and `close()` before closing them.
 */
export function createEngine(given: EngineDeps): Engine {
  const hints = createEventHints();
  const observer = given.observer ?? silentObserver;
  const stores = cachedStores(given.stores, given.clock, () => hints.notify());
  const settings = () => readSettings(stores.settings);
  const catalog = createProviderCatalog({
    builtIn: given.providers,
    sources: given.providerSources ?? [],
    settings,
  });
  const deps: EngineDeps = {
    ...given,
    stores,
    // The owner's settings add and change providers while the relay runs.
    get providers() {
      return catalog.current;
    },
  };
  // How the other processes of the cluster reach this one, once the app listens.
  let address: string | undefined;
  // One agent token per session for the CLI agents this process starts, made when first asked.
  const accessTokens = new Map<string, Promise<string>>();
  const agentAccess = async (sessionId: string): Promise<AgentAccess | null> => {
    const url = typeof deps.relayUrl === "function" ? deps.relayUrl() : deps.relayUrl;
    if (url === undefined) {
      return null;
    }
    let token = accessTokens.get(sessionId);
    if (token === undefined) {
      token = issueToken(deps, { kind: "agent", subject: sessionId });
      accessTokens.set(sessionId, token);
      token.catch(() => accessTokens.delete(sessionId));
    }
    return { url, sessionId, token: await token };
  };
  const runtime = createSessionRuntime({
    stores: deps.stores,
    relayName: deps.relay.name,
    get providers() {
      return catalog.current;
    },
    refreshProviders: () => catalog.refresh(),
    clock: deps.clock,
    ids: deps.ids,
    logger: deps.logger,
    observer,
    agentAccess,
    reportUsage: (_sessionId, provider, usage) => addUsage(deps.stores, provider, deps.clock.now(), usage),
    ...(deps.taskOutputDir === undefined ? {} : { taskOutputDir: deps.taskOutputDir }),
    ...(deps.childEnv === undefined ? {} : { childEnv: deps.childEnv }),
    // A worker's relay_tool call (the script agent's `!tool`, a CLI agent's MCP call) runs
    // through the same rules as any other caller's.
    callTool: (sessionId, input) => engine.execute(sessionId, input),
    maxTurnSeconds: async () => (await settings()).maxTurnSeconds,
    ...(deps.sharedStore === undefined ? {} : { sharedStore: deps.sharedStore }),
    ...(deps.runnerProcess === undefined ? {} : { runnerProcess: deps.runnerProcess }),
    ...(deps.cluster === undefined ? {} : { cluster: deps.cluster }),
    address: () => address,
  });
  // What the dispatcher and the schedule runner both work with: due work that queues turns.
  const dueWork = {
    stores: deps.stores,
    clock: deps.clock,
    ids: deps.ids,
    logger: deps.logger ?? silentLogger,
    observer,
    sharedStore: deps.sharedStore ?? false,
    drivenFromOutside: (provider: string) =>
      findProvider(deps.providers, provider)?.info.drivenFromOutside === true,
    kick: (sessionId: string) => runtime.kick(sessionId),
  };
  const dispatcher = createDispatcher(dueWork);
  // §28: the events of subscriptions on paired relays, fetched into this relay's outbox.
  const remoteEvents = createRemoteEventsPoller({
    stores: deps.stores,
    clock: deps.clock,
    ids: deps.ids,
    logger: deps.logger ?? silentLogger,
    peerLink: deps.peerLink,
    relayName: deps.relay.name,
    ...(deps.peerPollMs === undefined ? {} : { pollMs: deps.peerPollMs }),
    appended: () => hints.notify(),
  });
  // §33: durable schedules, fired from their rows.
  const schedules = createScheduleRunner(dueWork);
  // R-QCHK-05: questions asked on paired relays, looked at until they close.
  const questionPolls = createQuestionPoller({ ...deps, logger: deps.logger ?? silentLogger });
  const live = createEngineLive({ clock: deps.clock });
  // Old rows pruned as claimed due work, on a timer only when the app asks for it.
  const pruner = createPruner({
    stores: deps.stores,
    clock: deps.clock,
    ids: deps.ids,
    logger: deps.logger ?? silentLogger,
    options: resolveRetention(deps.retention),
  });
  const stopHints = [
    live.scheduleChanges.listen(() => {
      schedules.poke();
      // The other processes look at once too (DESIGN §9); their backstop catches a lost hint.
      void given.stores.schedules.announceChanges?.().catch((error: unknown) =>
        deps.logger?.warn("Other relay processes could not be told of a schedule change.", {
          error: errorMessage(error),
        }),
      );
    }),
    given.stores.schedules.onForeignChanges?.(() => schedules.poke()) ?? (() => {}),
    live.questionPolls.listen(() => questionPolls.poke()),
    hints.listen(() => dispatcher.poke()),
    given.stores.events.onForeignEvents?.(() => hints.notify()) ?? (() => {}),
  ];
  const parts = { deps, runtime, live };
  // A call goes on with the providers it knows when the settings cannot be read now (the database
  // away): the call meets the outage itself and answers it with its code, never as a bug.
  const refreshProviders = () =>
    catalog.refresh().catch((error: unknown) =>
      deps.logger?.warn("The providers could not be brought up to date with the settings.", {
        error: errorMessage(error),
      }),
    );
  const engine: Engine = {
    execute: async (callerSessionId, input, options) => {
      await refreshProviders();
      return executeCall(parts, callerSessionId, input, options);
    },
    executeFromPeer: async (origin, input, options) => {
      await refreshProviders();
      return executeFromPeer(parts, origin, input, options);
    },
    authenticate: (kind, token) => authenticate(deps, kind, token),
    bindInvite: (invite, relay) => bindInvite(deps, invite, relay),
    isToolEnabled: async () =>
      relayToolOffered({
        agentSessionsEnabled: (await settings()).agentSessions.enabled,
        pairedRelays: await deps.stores.peers.countPeers(),
      }),
    owner: createOwnerApi(deps, runtime, live, hints, catalog),
    peerQuestion: (relay, questionId) => peerQuestion(deps, relay, questionId),
    peerSubscriptionEvents: (relay, subscriptionId, query) =>
      peerSubscriptionEvents(deps, relay, subscriptionId, query),
    async announce(at) {
      address = at;
      await runtime.announce();
    },
    serveCluster: (request, target) => runtime.serveCluster(request, target),
    async settleEvents() {
      await remoteEvents.settled();
      await schedules.settled();
      await questionPolls.settled();
      await dispatcher.settled();
    },
    pruneNow: () => pruner.pruneNow(),
    async start() {
      await catalog.refresh();
      await runtime.start();
      dispatcher.start();
      remoteEvents.start();
      schedules.start();
      questionPolls.start();
      if (deps.retention !== undefined) {
        pruner.start();
      }
    },
    async close() {
      for (const stop of stopHints) {
        stop();
      }
      await remoteEvents.close();
      await schedules.close();
      await questionPolls.close();
      await pruner.close();
      await dispatcher.close();
      await runtime.close();
      // The activity lines of the last calls land before the stores close.
      await live.toolCalls.close();
    },
  };
  return engine;
}
