import { ID_PREFIXES, type IdGenerator, RelayError } from "@oar/core";
import type { FakeClock } from "@oar/core/testing";
import { PEER_FEATURES, type PeerToolRequest, type PermissionLevel } from "@oar/schema";
import { expect, onTestFinished } from "vitest";
import { createEngine } from "../../src/create-engine";
import type { Engine } from "../../src/engine";
import type { EngineStores } from "../../src/ports/engine-stores";
import type { PeerLink } from "../../src/ports/peer-link";
import type { Provider } from "../../src/ports/provider";
import type { SessionRecord } from "../../src/ports/session-store";
import type { ToolResult } from "../../src/ports/tool-result";
import { createTestProvider, openTestStores, type TestProvider } from "../../src/testing";
import { settle, testClock } from "../actions/harness";

/** One relay of a federation test: an engine on the suite's stores, the test provider, a Planner conversation. */
export interface FedRelay {
  readonly name: string;
  readonly url: string;
  /** The invite token other relays present here. */
  readonly invite: string;
  readonly stores: EngineStores;
  readonly provider: TestProvider;
  readonly engine: Engine;
  /** An owner-started conversation on this relay, the usual caller. */
  readonly caller: SessionRecord;
  /** Runs a relay_tool call as `sessionId` (default: the caller). */
  call(input: unknown, sessionId?: string): Promise<ToolResult>;
  /** A call expected to succeed. */
  ok(input: unknown, sessionId?: string): Promise<ToolResult>;
  /** A session the owner started here. */
  ownerSession(title?: string): Promise<SessionRecord>;
  /** Pairs this relay with `other` under `other`'s name (or `name`), at `level`. */
  pair(
    other: FedRelay,
    options?: { readonly level?: PermissionLevel; readonly name?: string },
  ): Promise<void>;
  /** The owner writes in a conversation (a turn starts; mentioned relays unlock, R-LOCK-01(a)). */
  write(text: string, sessionId?: string): Promise<void>;
  /** Holds every turn of this relay's provider open, and puts the caller in a running turn. */
  inTurn(sessionId?: string): Promise<void>;
}

export interface Federation {
  readonly clock: FakeClock;
  readonly relays: Readonly<Record<string, FedRelay>>;
  /** Every request a relay sent another, in order. */
  readonly requests: { readonly from: string; readonly to: string; readonly request: PeerToolRequest }[];
  /** Relays that do not answer. */
  readonly down: Set<string>;
}

/** Ids of one relay: ses_<tag>00000000001…, so ids of different relays never meet by chance. */
function taggedIds(tag: string): IdGenerator {
  const counters = new Map<string, number>();
  return {
    next(kind) {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      return `${ID_PREFIXES[kind]}_${tag}${String(n).padStart(11, "0")}`;
    },
  };
}

/**
 * Relays that reach each other in process: each engine's PeerLink calls the target engine's
 * executeFromPeer, checking the invite token as the peer surface does. One FakeClock for all.
 */
export async function createFederation(
  names: readonly string[] = ["desk", "build-box"],
  options: {
    readonly urls?: Readonly<Record<string, string>>;
    /** Providers a relay has after the test provider, by relay name. */
    readonly providers?: Readonly<Record<string, readonly Provider[]>>;
  } = {},
): Promise<Federation> {
  const clock = testClock();
  const relays: Record<string, FedRelay> = {};
  const requests: Federation["requests"] = [];
  const down = new Set<string>();
  const byUrl = (url: string) => Object.values(relays).find((relay) => relay.url === url);

  const linkFrom = (from: string): PeerLink => ({
    async info(peer) {
      const target = byUrl(peer.url);
      if (!target || down.has(target.name)) {
        throw new RelayError("NETWORK", `${peer.url} does not answer`, { retryable: true });
      }
      return { name: target.name, version: "0.9.19", features: [...PEER_FEATURES] };
    },
    async tool(peer, request, options) {
      const target = byUrl(peer.url);
      if (!target || down.has(target.name)) {
        throw new RelayError("NETWORK", `${peer.url} does not answer`, { retryable: true });
      }
      if (peer.token !== target.invite) {
        throw new RelayError("REMOTE_RELAY_AUTH", `${peer.url} refused the token`);
      }
      requests.push({ from, to: target.name, request });
      return (await target.engine.executeFromPeer(request.origin, request.call, {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      })) as Awaited<ReturnType<PeerLink["tool"]>>;
    },
    async subscriptionEvents(peer, subscriptionId, query) {
      const target = byUrl(peer.url);
      if (!target || down.has(target.name)) {
        throw new RelayError("NETWORK", `${peer.url} does not answer`, { retryable: true });
      }
      if (peer.token !== target.invite) {
        throw new RelayError("REMOTE_RELAY_AUTH", `${peer.url} refused the token`);
      }
      return target.engine.peerSubscriptionEvents(from, subscriptionId, {
        limit: query.limit,
        ...(query.after === null ? {} : { after: query.after }),
      });
    },
    async question(peer, questionId) {
      const target = byUrl(peer.url);
      if (!target || down.has(target.name)) {
        throw new RelayError("NETWORK", `${peer.url} does not answer`, { retryable: true });
      }
      if (peer.token !== target.invite) {
        throw new RelayError("REMOTE_RELAY_AUTH", `${peer.url} refused the token`);
      }
      return target.engine.peerQuestion(from, questionId);
    },
  });

  for (const [index, name] of names.entries()) {
    const stores = await openTestStores();
    const provider = createTestProvider();
    const ids = taggedIds(String.fromCharCode(97 + index));
    const engine = createEngine({
      stores,
      providers: [provider, ...(options.providers?.[name] ?? [])],
      clock,
      ids,
      relay: { name, version: "0.9.19", platform: "linux-x64" },
      approvalCards: true,
      peerLink: linkFrom(name),
    });
    await engine.start();
    onTestFinished(async () => {
      provider.release();
      await engine.close();
    });
    let count = 0;
    const ownerSession = async (title?: string) => {
      count++;
      return stores.sessions.createSession({
        id: ids.next("session"),
        title: title ?? `${name} session ${count}`,
        provider: "test",
        model: "test-1",
        createdAt: clock.now(),
      });
    };
    const caller = await ownerSession("Planner");
    const call = (input: unknown, sessionId = caller.id) => engine.execute(sessionId, input);
    relays[name] = {
      name,
      url: options.urls?.[name] ?? `https://${name}.test`,
      invite: `invite-for-${name}`,
      stores,
      provider,
      engine,
      caller,
      call,
      async ok(input, sessionId) {
        const result = await call(input, sessionId);
        expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
        return result;
      },
      ownerSession,
      async pair(other, options = {}) {
        await engine.owner.createPeer({
          name: options.name ?? other.name,
          url: other.url,
          token: other.invite,
          level: options.level ?? "full",
        });
      },
      async write(text, sessionId = caller.id) {
        await engine.owner.postMessage(sessionId, text);
        await settle();
      },
      async inTurn(sessionId = caller.id) {
        provider.hold();
        await engine.owner.postMessage(sessionId, "hold");
        await settle();
      },
    };
  }
  return { clock, relays, requests, down };
}

/** The relay of that name; fails the test when there is none. */
export function relayOf(federation: Federation, name: string): FedRelay {
  const relay = federation.relays[name];
  if (!relay) {
    throw new Error(`no relay ${name} in this federation`);
  }
  return relay;
}

/** Lets every relay's dispatcher, runners and pollers do what is due now, a few rounds over. */
export async function flowAll(...relays: FedRelay[]): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await settle();
    for (const relay of relays) {
      await relay.engine.settleEvents();
    }
  }
  await settle();
}

/**
 * desk pairs with build-box (one direction is enough, R-PAIR-02); the owner writes `ownerMessage`,
 * which names it; desk's caller is in a turn, and build-box has the owner's "Nightly deploy" (to
 * watch, or to ask about).
 */
export async function pairedWithDeploy(ownerMessage = "watch the deploy on build-box") {
  const fed = await createFederation(["desk", "build-box"]);
  const desk = relayOf(fed, "desk");
  const box = relayOf(fed, "build-box");
  await desk.pair(box);
  await desk.write(ownerMessage);
  await desk.inTurn();
  const target = await box.ownerSession("Nightly deploy");
  return { fed, desk, box, target };
}
