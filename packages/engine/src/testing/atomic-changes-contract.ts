import { createSequentialIdGenerator, FakeClock } from "@oar/core/testing";
import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import { createEngine } from "../create-engine";
import type { Engine } from "../engine";
import type { EngineStores } from "../ports/engine-stores";
import type { SessionRecord } from "../ports/session-store";
import type { ToolResult } from "../ports/tool-result";
import { InjectedStoreFailure, type StoreMethod, withFailingMethod } from "./failing-stores";
import { createTestProvider } from "./test-provider";

/** Everything a caller can see of the stores, to compare before and after a failed change. */
async function visibleState(stores: EngineStores) {
  const sessions = await stores.sessions.listSessions({ scope: "all" });
  const perSession = await Promise.all(
    sessions.map(async (session) => ({
      session,
      messages: await stores.sessions.listMessages(session.id),
      unlocks: await stores.unlocks.listRelayUnlocks(session.id),
      loopCount: await stores.loopCounters.getLoopCounter(session.id),
    })),
  );
  return {
    perSession,
    turns: await stores.sessions.listActiveTurns(),
    groups: (await stores.groups.listGroups({ includeEmpty: true, limit: 1_000 })).groups,
    tokens: await stores.tokens.listTokens(),
    peers: await stores.peers.listPeers(),
  };
}

interface Rig {
  readonly stores: EngineStores;
  readonly clock: FakeClock;
  /** An engine over the stores with `method` failing, approval cards off. */
  engineFailing(method: StoreMethod): Promise<Engine>;
  session(
    id: string,
    overrides?: Partial<Parameters<EngineStores["sessions"]["createSession"]>[0]>,
  ): Promise<SessionRecord>;
}

function rigOf(stores: EngineStores): Rig & { close(): Promise<void> } {
  const clock = new FakeClock(T0);
  const engines: Engine[] = [];
  return {
    stores,
    clock,
    async engineFailing(method) {
      const engine = createEngine({
        stores: withFailingMethod(stores, method),
        providers: [createTestProvider()],
        clock,
        ids: createSequentialIdGenerator(),
        relay: { name: "desk", version: "0.1.0", platform: "linux-x64" },
        approvalCards: false,
      });
      engines.push(engine);
      return engine;
    },
    session: (id, overrides = {}) =>
      stores.sessions.createSession({
        id,
        title: `Session ${id}`,
        provider: "test",
        model: "test-1",
        createdAt: T0,
        ...overrides,
      }),
    async close() {
      await Promise.all(engines.map((engine) => engine.close()));
    },
  };
}

/** A failed change: the call reports the injected failure, and nothing a caller can see changed. */
async function expectNothingChanged(rig: Rig, change: () => Promise<unknown>): Promise<unknown> {
  const before = await visibleState(rig.stores);
  const outcome = await change().then(
    (value) => value,
    (error: unknown) => error,
  );
  expect(await visibleState(rig.stores)).toEqual(before);
  return outcome;
}

function failedInternally(result: unknown): void {
  const envelope = result as ToolResult;
  expect(envelope.ok).toBe(false);
  expect(envelope.code).toBe("REMOTE_RELAY_INTERNAL");
}

function failedWithInjection(outcome: unknown): void {
  expect(outcome).toBeInstanceOf(InjectedStoreFailure);
}

/**
 * DESIGN §7: a call that writes several rows writes them in one transaction, so a call that
 * fails on its last write changes nothing. Every store set (memory, PGlite, Postgres) passes it.
 */
export function runAtomicChangesContract(setup: ContractSetup<ContractFixture<EngineStores>>): void {
  describe("atomic changes (DESIGN §7): failing a verb's last write leaves nothing of it", () => {
    const fixture = useContractFixture(async () => {
      const inner = await setup();
      const rig = rigOf(inner.store);
      return {
        store: rig,
        async cleanup() {
          await rig.close();
          await inner.cleanup();
        },
      };
    });
    const rig = () => fixture().store;

    /** A relay_tool call of `callerId` fails on `method`: the envelope is INTERNAL, nothing changed. */
    const callFails = async (method: StoreMethod, callerId: string, call: Record<string, unknown>) => {
      const engine = await rig().engineFailing(method);
      failedInternally(await expectNothingChanged(rig(), () => engine.execute(callerId, call)));
    };
    const send = (session: string, extra: Record<string, unknown> = {}) => ({
      action: "send",
      relay: "this",
      session,
      text: "hi",
      wait_seconds: 0,
      ...extra,
    });
    const start = { action: "create_session", relay: "this", text: "start", wait_seconds: 0 };

    it("send: settings, prompt and turn go when the anti-loop count fails (R-SEND-05, GAP-04 (f))", async () => {
      const caller = await rig().session("ses_caller", { mode: "ask" });
      const target = await rig().session("ses_target");
      await callFails("loopCounters.incrementLoopCounter", caller.id, send(target.id, { model: "test-2" }));
    });

    it("send: the prompt message goes when its turn cannot be queued", async () => {
      const caller = await rig().session("ses_caller");
      const target = await rig().session("ses_target");
      await callFails("sessions.enqueueTurn", caller.id, send(target.id));
    });

    it("create_session: no session, no group and no head role stay behind when the first prompt fails", async () => {
      const caller = await rig().session("ses_caller");
      await callFails("sessions.enqueueTurn", caller.id, start);
    });

    it("create_session: nothing stays behind when the anti-loop count fails", async () => {
      const caller = await rig().session("ses_caller");
      await callFails("loopCounters.incrementLoopCounter", caller.id, start);
    });

    it("update_session: a new group is undone when the settings fail to write (R-UPD-13)", async () => {
      const caller = await rig().session("ses_caller");
      const target = await rig().session("ses_target", { createdBy: { relay: null, session: caller.id } });
      await callFails("sessions.updateSession", caller.id, {
        action: "update_session",
        relay: "this",
        session: target.id,
        title: "renamed",
        group: "Release",
      });
    });

    it("owner createSession with a first message: no session when the turn cannot be queued", async () => {
      const engine = await rig().engineFailing("sessions.enqueueTurn");
      failedWithInjection(
        await expectNothingChanged(rig(), () => engine.owner.createSession({ title: "t", text: "hello" })),
      );
    });

    it("owner postMessage: an archived session stays archived and its anti-loop count stays when the turn fails", async () => {
      const session = await rig().session("ses_1");
      await rig().stores.sessions.archiveSession({ id: session.id, at: T0 });
      await rig().stores.loopCounters.incrementLoopCounter(session.id);
      const engine = await rig().engineFailing("sessions.enqueueTurn");
      failedWithInjection(
        await expectNothingChanged(rig(), () => engine.owner.postMessage(session.id, "again")),
      );
    });

    it("owner patchSession: the title stays when the group move fails", async () => {
      const session = await rig().session("ses_1");
      const group = await rig().stores.groups.createGroup({
        id: "grp_1",
        name: "Release",
        createdByAgent: false,
        headSessionId: null,
        createdAt: T0,
      });
      const engine = await rig().engineFailing("groups.setSessionGroup");
      failedWithInjection(
        await expectNothingChanged(rig(), () =>
          engine.owner.patchSession(session.id, { title: "renamed", group: group.id }),
        ),
      );
    });

    it("owner deleteSession: the session, its queued turn and its tokens stay when the token revocation fails", async () => {
      const session = await rig().session("ses_1");
      await rig().stores.sessions.enqueueTurn({
        id: "trn_1",
        sessionId: session.id,
        origin: { kind: "owner" },
        queuedAt: T0,
      });
      const engine = await rig().engineFailing("tokens.revokeTokensOf");
      await engine.owner.issueAgentToken(session.id);
      failedWithInjection(await expectNothingChanged(rig(), () => engine.owner.deleteSession(session.id)));
    });

    it("owner createGroup: no group stays when a member cannot be placed", async () => {
      const first = await rig().session("ses_1");
      const second = await rig().session("ses_2");
      const engine = await rig().engineFailing("groups.setSessionGroup");
      failedWithInjection(
        await expectNothingChanged(rig(), () =>
          engine.owner.createGroup({ name: "Release", sessions: [first.id, second.id] }),
        ),
      );
    });

    it("owner removePeer: the pairing stays when its unlocks cannot be forgotten (R-LOCK-01)", async () => {
      await rig().stores.peers.createPeer({
        id: "peer_1",
        name: "build-box",
        url: "https://build-box.test",
        level: "full",
        token: "t",
        createdAt: T0,
      });
      const session = await rig().session("ses_1");
      await rig().stores.unlocks.unlockRelay({
        conversation: session.id,
        relay: "build-box",
        how: "mention",
        at: T0,
      });
      const engine = await rig().engineFailing("unlocks.forgetRelay");
      failedWithInjection(await expectNothingChanged(rig(), () => engine.owner.removePeer("build-box")));
    });

    it("a prompt is its message and its turn: no message stays when the turn cannot be queued", async () => {
      const session = await rig().session("ses_1");
      const engine = await rig().engineFailing("sessions.enqueueTurn");
      failedWithInjection(
        await expectNothingChanged(rig(), () => engine.owner.postMessage(session.id, "hello")),
      );
    });
  });
}
