import { relayToolOffered } from "@oar/permissions";
import { executeCall } from "./actions/execute";
import { cachedStores } from "./cached-stores";
import type { Engine, EngineDeps } from "./engine";
import { createEngineLive } from "./live";
import { createOwnerApi } from "./owner/create-owner-api";
import { executeFromPeer } from "./peers/from-peer";
import { createSessionRuntime } from "./runtime/create-session-runtime";
import { readSettings } from "./settings";
import { authenticate, bindInvite } from "./tokens/token-verbs";

/**
 * The action engine over the given stores and providers: relay_tool calls (`execute`), the
 * owner's verbs (`owner`), and the session runtime that runs every session's turns. Call
 * `start()` once the stores are open (it recovers after a restart) and `close()` before closing them.
 */
export function createEngine(given: EngineDeps): Engine {
  const deps: EngineDeps = { ...given, stores: cachedStores(given.stores, given.clock) };
  const settings = () => readSettings(deps.stores.settings);
  const runtime = createSessionRuntime({
    stores: deps.stores,
    providers: deps.providers,
    clock: deps.clock,
    ids: deps.ids,
    logger: deps.logger,
    // A worker's relay_tool call (the script agent's `!tool`, a CLI agent's MCP call) runs
    // through the same rules as any other caller's.
    callTool: (sessionId, input) => engine.execute(sessionId, input),
    maxTurnSeconds: async () => (await settings()).maxTurnSeconds,
    ...(deps.sharedStore === undefined ? {} : { sharedStore: deps.sharedStore }),
  });
  const live = createEngineLive({ clock: deps.clock });
  const parts = { deps, runtime, live };
  const engine: Engine = {
    execute: (callerSessionId, input, options) => executeCall(parts, callerSessionId, input, options),
    executeFromPeer: (origin, input, options) => executeFromPeer(parts, origin, input, options),
    authenticate: (kind, token) => authenticate(deps, kind, token),
    bindInvite: (invite, relay) => bindInvite(deps, invite, relay),
    isToolEnabled: async () =>
      relayToolOffered({
        agentSessionsEnabled: (await settings()).agentSessions.enabled,
        pairedRelays: await deps.stores.peers.countPeers(),
      }),
    owner: createOwnerApi(deps, runtime, live),
    start: () => runtime.start(),
    close: () => runtime.close(),
  };
  return engine;
}
