import { type ContractFixture, type ContractSetup, T0, useContractFixture } from "@oar/permissions/testing";
import { describe, expect, it } from "vitest";
import type { Provenance, SessionStore } from "../ports/session-store";
import { newMessage, newSession, newTurn } from "./fixtures";

const provenance: Provenance = {
  relay: "build-box",
  session: "ses_remote",
  title: "Nightly deploy",
  model: "script-2",
  hops: 1,
  userUnlocked: true,
};

/** The behaviour every SessionStore must have: sessions, messages and the turn queue. */
export function runSessionStoreContract(setup: ContractSetup<ContractFixture<SessionStore>>): void {
  describe("SessionStore contract", () => {
    const fixture = useContractFixture(setup);
    const store = () => fixture().store;
    const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

    describe("sessions", () => {
      it("creates a session with defaults for what the caller left out", async () => {
        const created = await store().createSession(newSession("ses_1"));
        expect(created).toEqual({
          id: "ses_1",
          title: "Session ses_1",
          provider: "script",
          model: "script-1",
          effort: null,
          mode: "agent",
          cwd: null,
          repo: null,
          branch: null,
          state: "idle",
          createdBy: null,
          viaAgent: null,
          mayCreateSessions: false,
          group: null,
          settings: {},
          providerState: null,
          createdAt: T0,
          lastActivityAt: T0,
          archivedAt: null,
        });
        expect(await store().getSession("ses_1")).toEqual(created);
      });

      it("keeps every field it was created with", async () => {
        const fields = {
          title: "Review: server/",
          provider: "command",
          model: "script-2",
          effort: "low",
          mode: "plan",
          cwd: "/home/dev/shop",
          repo: "example-org/sample-repo",
          branch: "feature/banner",
          createdBy: { relay: "desk", session: "ses_parent" },
          viaAgent: "Release manager",
          mayCreateSessions: true,
          settings: {
            auto_compact_window: "auto",
            thinking_enabled: true,
            nested: { list: [1, "two", null] },
          },
        } as const;
        const created = await store().createSession(newSession("ses_1", fields));
        expect(created).toMatchObject(fields);
        expect(await store().getSession("ses_1")).toEqual(created);
      });

      it("returns null for an unknown session", async () => {
        expect(await store().getSession("ses_missing")).toBeNull();
        expect(await store().updateSession("ses_missing", { title: "x" })).toBeNull();
        expect(await store().archiveSession({ id: "ses_missing", at: T0 })).toBeNull();
        expect(await store().deleteSession({ id: "ses_missing", at: T0 })).toBe(false);
      });

      it("updates only the fields of the patch", async () => {
        await store().createSession(newSession("ses_1", { cwd: "/a", settings: { thinking_enabled: true } }));
        const updated = await store().updateSession("ses_1", {
          model: "script-2",
          state: "running_turn",
          settings: { thinking_display: "summarized" },
          providerState: { resume: "cli-123" },
          mayCreateSessions: true,
          cwd: null,
        });
        expect(updated).toMatchObject({
          title: "Session ses_1",
          model: "script-2",
          state: "running_turn",
          settings: { thinking_display: "summarized" },
          providerState: { resume: "cli-123" },
          mayCreateSessions: true,
          cwd: null,
        });
        expect(await store().getSession("ses_1")).toEqual(updated);
        expect(await store().updateSession("ses_1", {})).toEqual(updated);
      });

      it("lists by scope, most recent activity first, with message counts", async () => {
        await store().createSession(newSession("ses_old", { createdAt: T0 }));
        await store().createSession(newSession("ses_new", { createdAt: T0 + 2000 }));
        await store().createSession(newSession("ses_archived", { createdAt: T0 + 1000 }));
        await store().createSession(newSession("ses_deleted", { createdAt: T0 + 3000 }));
        await store().appendMessage(newMessage("msg_1", "ses_old", { createdAt: T0 + 5000 }));
        await store().appendMessage(newMessage("msg_2", "ses_old", { createdAt: T0 + 5000 }));
        await store().archiveSession({ id: "ses_archived", at: T0 + 6000 });
        await store().deleteSession({ id: "ses_deleted", at: T0 + 6000 });

        const active = await store().listSessions();
        expect(ids(active)).toEqual(["ses_old", "ses_new"]);
        expect(active.map((s) => [s.messageCount, s.lastActivityAt])).toEqual([
          [2, T0 + 5000],
          [0, T0 + 2000],
        ]);
        expect(ids(await store().listSessions({ scope: "active" }))).toEqual(["ses_old", "ses_new"]);
        expect(ids(await store().listSessions({ scope: "archived" }))).toEqual(["ses_archived"]);
        expect(ids(await store().listSessions({ scope: "all" }))).toEqual([
          "ses_old",
          "ses_new",
          "ses_archived",
        ]);
        expect(ids(await store().listSessions({ scope: "all", limit: 2 }))).toEqual(["ses_old", "ses_new"]);
      });

      it("archives and unarchives", async () => {
        await store().createSession(newSession("ses_1"));
        expect(await store().archiveSession({ id: "ses_1", at: T0 + 1000 })).toMatchObject({
          archivedAt: T0 + 1000,
        });
        expect((await store().getSession("ses_1"))?.archivedAt).toBe(T0 + 1000);
        expect(await store().unarchiveSession("ses_1")).toMatchObject({ archivedAt: null });
        expect(ids(await store().listSessions())).toEqual(["ses_1"]);
      });

      it("reads several sessions at once: archived ones included, deleted and unknown ones left out", async () => {
        const one = await store().createSession(newSession("ses_1"));
        await store().createSession(newSession("ses_2"));
        await store().createSession(newSession("ses_3"));
        const archived = await store().archiveSession({ id: "ses_2", at: T0 + 10 });
        await store().deleteSession({ id: "ses_3", at: T0 + 10 });
        const read = await store().getSessions(["ses_2", "ses_3", "ses_missing", "ses_1", "ses_1"]);
        expect([...read].sort((a, b) => a.id.localeCompare(b.id))).toEqual([one, archived]);
        expect(await store().getSessions([])).toEqual([]);
      });

      it("treats a deleted session as gone", async () => {
        await store().createSession(newSession("ses_1"));
        expect(await store().deleteSession({ id: "ses_1", at: T0 + 1000 })).toBe(true);
        expect(await store().getSession("ses_1")).toBeNull();
        expect(await store().updateSession("ses_1", { title: "again" })).toBeNull();
        expect(await store().deleteSession({ id: "ses_1", at: T0 + 2000 })).toBe(false);
        expect(await store().listSessions({ scope: "all" })).toEqual([]);
      });
    });

    it("lockSession changes nothing, and takes an unknown id (a store with one writer at a time has nothing to hold)", async () => {
      const created = await store().createSession(newSession("ses_1"));
      await store().lockSession("ses_1");
      await store().lockSession("ses_unknown");
      expect(await store().getSession("ses_1")).toEqual(created);
    });

    describe("messages", () => {
      it("appends messages and lists them oldest first, in append order within a millisecond", async () => {
        await store().createSession(newSession("ses_1"));
        await store().createSession(newSession("ses_2"));
        const first = await store().appendMessage(
          newMessage("msg_b", "ses_1", { role: "user", text: "Did the deploy go through?", provenance }),
        );
        expect(first).toEqual({
          id: "msg_b",
          sessionId: "ses_1",
          turnId: null,
          role: "user",
          text: "Did the deploy go through?",
          provenance,
          createdAt: T0,
        });
        await store().appendMessage(newMessage("msg_a", "ses_1", { role: "assistant", turnId: "trn_1" }));
        await store().appendMessage(newMessage("msg_c", "ses_1", { role: "relay", createdAt: T0 + 1 }));
        await store().appendMessage(newMessage("msg_other", "ses_2", { role: "system" }));

        const messages = await store().listMessages("ses_1");
        expect(ids(messages)).toEqual(["msg_b", "msg_a", "msg_c"]);
        expect(messages[1]).toMatchObject({ role: "assistant", turnId: "trn_1", provenance: null });
      });

      it("appends several messages at once, in order, moving each session's last activity to its latest", async () => {
        await store().createSession(newSession("ses_1", { createdAt: T0 + 1000 }));
        await store().createSession(newSession("ses_2", { createdAt: T0 + 9000 }));
        const appended = await store().appendMessages([
          newMessage("msg_b", "ses_1", { role: "relay", createdAt: T0 + 5000 }),
          newMessage("msg_a", "ses_2", { role: "relay", turnId: "trn_1", createdAt: T0 + 3000 }),
          newMessage("msg_c", "ses_1", { role: "relay", text: "second", createdAt: T0 + 4000 }),
        ]);
        expect(ids(appended)).toEqual(["msg_b", "msg_a", "msg_c"]);
        expect(appended[1]).toEqual({
          id: "msg_a",
          sessionId: "ses_2",
          turnId: "trn_1",
          role: "relay",
          text: expect.any(String),
          provenance: null,
          createdAt: T0 + 3000,
        });
        expect(ids(await store().listMessages("ses_1"))).toEqual(["msg_b", "msg_c"]);
        expect((await store().getSession("ses_1"))?.lastActivityAt).toBe(T0 + 5000);
        // Never back: ses_2 was active later than its message.
        expect((await store().getSession("ses_2"))?.lastActivityAt).toBe(T0 + 9000);
        expect(await store().appendMessages([])).toEqual([]);
      });

      it("revises the texts of messages, leaving the rest of them and the others as they were", async () => {
        await store().createSession(newSession("ses_1"));
        await store().appendMessages([
          newMessage("msg_a", "ses_1", { role: "relay", text: "one event", createdAt: T0 + 1 }),
          newMessage("msg_b", "ses_1", { role: "relay", text: "untouched", createdAt: T0 + 2 }),
        ]);
        await store().reviseMessages([
          { id: "msg_a", text: "two events" },
          { id: "msg_nowhere", text: "ignored" },
        ]);
        await store().reviseMessages([]);
        const listed = await store().listMessages("ses_1");
        expect(listed.map((m) => [m.id, m.text, m.createdAt])).toEqual([
          ["msg_a", "two events", T0 + 1],
          ["msg_b", "untouched", T0 + 2],
        ]);
        expect(await store().getMessage("msg_nowhere")).toBeNull();
      });

      it("lists the last N messages, oldest first", async () => {
        await store().createSession(newSession("ses_1"));
        for (let i = 1; i <= 5; i++) {
          await store().appendMessage(newMessage(`msg_${i}`, "ses_1", { createdAt: T0 + i }));
        }
        expect(ids(await store().listMessages("ses_1", { last: 2 }))).toEqual(["msg_4", "msg_5"]);
        expect(ids(await store().listMessages("ses_1", { last: 10 }))).toEqual([
          "msg_1",
          "msg_2",
          "msg_3",
          "msg_4",
          "msg_5",
        ]);
        expect(await store().listMessages("ses_1", { last: 0 })).toEqual([]);
        expect(await store().listMessages("ses_missing")).toEqual([]);
      });

      it("moves the session's last activity forward, never back", async () => {
        await store().createSession(newSession("ses_1", { createdAt: T0 + 1000 }));
        await store().appendMessage(newMessage("msg_1", "ses_1", { createdAt: T0 + 5000 }));
        expect((await store().getSession("ses_1"))?.lastActivityAt).toBe(T0 + 5000);
        await store().appendMessage(newMessage("msg_2", "ses_1", { createdAt: T0 + 2000 }));
        expect((await store().getSession("ses_1"))?.lastActivityAt).toBe(T0 + 5000);
      });
    });

    describe("turns", () => {
      it("enqueues a turn and reads it back", async () => {
        await store().createSession(newSession("ses_1"));
        const turn = await store().enqueueTurn(
          newTurn("trn_1", "ses_1", {
            promptMessageId: "msg_1",
            origin: { kind: "agent", provenance, mode: "ask" },
            queuedAt: T0 + 10,
          }),
        );
        expect(turn).toEqual({
          id: "trn_1",
          sessionId: "ses_1",
          status: "queued",
          runner: null,
          promptMessageId: "msg_1",
          origin: { kind: "agent", provenance, mode: "ask" },
          reply: null,
          error: null,
          queuedAt: T0 + 10,
          startedAt: null,
          endedAt: null,
          lastOutputAt: null,
        });
        expect(await store().getTurn("trn_1")).toEqual(turn);
        expect(await store().getTurn("trn_missing")).toBeNull();
      });

      it("enqueues several turns at once, in order, each claimed in its session's queue", async () => {
        await store().createSession(newSession("ses_1"));
        await store().createSession(newSession("ses_2"));
        await store().enqueueTurn(newTurn("trn_0", "ses_1", { queuedAt: T0 }));
        const queued = await store().enqueueTurns([
          newTurn("trn_2", "ses_2", { origin: { kind: "event" }, queuedAt: T0 + 1 }),
          newTurn("trn_1", "ses_1", {
            promptMessageId: "msg_1",
            origin: { kind: "event" },
            queuedAt: T0 + 1,
          }),
        ]);
        expect(ids(queued)).toEqual(["trn_2", "trn_1"]);
        expect(queued[1]).toMatchObject({
          status: "queued",
          promptMessageId: "msg_1",
          origin: { kind: "event" },
        });
        expect(await store().getTurn("trn_2")).toEqual(queued[0]);
        expect(await store().enqueueTurns([])).toEqual([]);
        const first = await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 2 });
        expect(first?.id).toBe("trn_0");
      });

      it("claims queued turns one at a time, in queue order", async () => {
        await store().createSession(newSession("ses_1"));
        await store().enqueueTurn(newTurn("trn_b", "ses_1"));
        await store().enqueueTurn(newTurn("trn_a", "ses_1"));

        const first = await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 100 });
        expect(first).toMatchObject({ id: "trn_b", status: "running", startedAt: T0 + 100 });
        expect(await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 200 })).toBeNull();

        await store().finishTurn({ turnId: "trn_b", status: "done", reply: "ok", endedAt: T0 + 300 });
        expect(await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 400 })).toMatchObject({
          id: "trn_a",
        });
        await store().finishTurn({ turnId: "trn_a", status: "done", endedAt: T0 + 500 });
        expect(await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 600 })).toBeNull();
      });

      it("lets a running turn in one session not block another session", async () => {
        await store().createSession(newSession("ses_1"));
        await store().createSession(newSession("ses_2"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        await store().enqueueTurn(newTurn("trn_2", "ses_2"));
        expect(await store().claimNextTurn({ sessionId: "ses_1", now: T0 })).toMatchObject({ id: "trn_1" });
        expect(await store().claimNextTurn({ sessionId: "ses_2", now: T0 })).toMatchObject({ id: "trn_2" });
      });

      it("gives a session's next turn to only one of several simultaneous claims", async () => {
        await store().createSession(newSession("ses_1"));
        for (const id of ["trn_1", "trn_2", "trn_3"]) {
          await store().enqueueTurn(newTurn(id, "ses_1"));
        }
        const claims = await Promise.all(
          Array.from({ length: 5 }, () => store().claimNextTurn({ sessionId: "ses_1", now: T0 })),
        );
        const won = claims.filter((claim) => claim !== null);
        expect(won.map((turn) => turn?.id)).toEqual(["trn_1"]);
        expect((await store().listActiveTurns({ sessionId: "ses_1" })).map((t) => t.status)).toEqual([
          "running",
          "queued",
          "queued",
        ]);
      });

      it("GAP-13: marks a running turn's output, moving forward only, and only while it runs", async () => {
        await store().createSession(newSession("ses_1"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        await store().markTurnOutput({ id: "trn_1", at: T0 + 50 });
        expect((await store().getTurn("trn_1"))?.lastOutputAt).toBeNull();
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 100 });
        expect((await store().getTurn("trn_1"))?.lastOutputAt).toBeNull();
        await store().markTurnOutput({ id: "trn_1", at: T0 + 30_000 });
        expect((await store().getTurn("trn_1"))?.lastOutputAt).toBe(T0 + 30_000);
        await store().markTurnOutput({ id: "trn_1", at: T0 + 20_000 });
        expect((await store().getTurn("trn_1"))?.lastOutputAt).toBe(T0 + 30_000);
        expect((await store().listActiveTurns())[0]?.lastOutputAt).toBe(T0 + 30_000);
        await store().finishTurn({ turnId: "trn_1", status: "done", reply: "ok", endedAt: T0 + 40_000 });
        await store().markTurnOutput({ id: "trn_1", at: T0 + 60_000 });
        expect((await store().getTurn("trn_1"))?.lastOutputAt).toBe(T0 + 30_000);
        await store().markTurnOutput({ id: "trn_missing", at: T0 });
      });

      it("finishes a turn once, with its reply or error", async () => {
        await store().createSession(newSession("ses_1"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        await store().enqueueTurn(newTurn("trn_2", "ses_1"));
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 1 });

        const done = await store().finishTurn({
          turnId: "trn_1",
          status: "done",
          reply: "Yes.",
          endedAt: T0 + 2,
        });
        expect(done).toMatchObject({
          status: "done",
          reply: "Yes.",
          error: null,
          startedAt: T0 + 1,
          endedAt: T0 + 2,
        });
        expect(
          await store().finishTurn({ turnId: "trn_1", status: "error", error: "late", endedAt: T0 + 3 }),
        ).toBeNull();
        expect(await store().getTurn("trn_1")).toEqual(done);

        await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 4 });
        expect(
          await store().finishTurn({ turnId: "trn_2", status: "error", error: "boom", endedAt: T0 + 5 }),
        ).toMatchObject({ status: "error", error: "boom", reply: null });
        expect(await store().finishTurn({ turnId: "trn_missing", status: "done", endedAt: T0 })).toBeNull();
      });

      it("appends the reply as the assistant message in the same write, only for the finisher that wins", async () => {
        await store().createSession(newSession("ses_1"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        await store().enqueueTurn(newTurn("trn_2", "ses_1"));
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 1 });
        await store().finishTurn({
          turnId: "trn_1",
          status: "done",
          reply: "Deployed.",
          endedAt: T0 + 2,
          replyMessageId: "msg_r1",
        });
        // A late finisher (a stop racing the end) adds nothing.
        await store().finishTurn({
          turnId: "trn_1",
          status: "stopped",
          reply: "late",
          endedAt: T0 + 3,
          replyMessageId: "msg_r2",
        });
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 4 });
        // An empty reply has no message.
        await store().finishTurn({
          turnId: "trn_2",
          status: "error",
          error: "boom",
          endedAt: T0 + 5,
          replyMessageId: "msg_r3",
        });
        const listed = await store().listMessages("ses_1");
        expect(listed.map((m) => [m.id, m.role, m.text, m.turnId, m.createdAt])).toEqual([
          ["msg_r1", "assistant", "Deployed.", "trn_1", T0 + 2],
        ]);
        expect((await store().getSession("ses_1"))?.lastActivityAt).toBe(T0 + 2);
      });

      it("stops a queued turn so that it is never claimed", async () => {
        await store().createSession(newSession("ses_1"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        expect(
          await store().finishTurn({ turnId: "trn_1", status: "stopped", endedAt: T0 + 1 }),
        ).toMatchObject({
          status: "stopped",
          startedAt: null,
          endedAt: T0 + 1,
        });
        expect(await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 2 })).toBeNull();
      });

      it("lists active turns in queue order, for one session or all", async () => {
        await store().createSession(newSession("ses_1"));
        await store().createSession(newSession("ses_2"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        await store().enqueueTurn(newTurn("trn_2", "ses_2"));
        await store().enqueueTurn(newTurn("trn_3", "ses_1"));
        await store().enqueueTurn(newTurn("trn_4", "ses_1"));
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 });
        await store().finishTurn({ turnId: "trn_1", status: "done", endedAt: T0 + 1 });
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 2 });

        expect(ids(await store().listActiveTurns())).toEqual(["trn_2", "trn_3", "trn_4"]);
        expect((await store().listActiveTurns({ sessionId: "ses_1" })).map((t) => [t.id, t.status])).toEqual([
          ["trn_3", "running"],
          ["trn_4", "queued"],
        ]);
      });

      it("counts the sessions a conversation started that have a turn queued or running", async () => {
        const conversation = { relay: null, session: "ses_parent" };
        await store().createSession(newSession("ses_parent"));
        for (const id of ["ses_a", "ses_b", "ses_c", "ses_d", "ses_e"]) {
          await store().createSession(newSession(id, { createdBy: conversation }));
        }
        await store().createSession(
          newSession("ses_remote", { createdBy: { relay: "desk", session: "ses_parent" } }),
        );
        await store().createSession(newSession("ses_owner"));
        expect(await store().countActiveSessionsCreatedBy(conversation)).toBe(0);

        await store().enqueueTurn(newTurn("trn_a1", "ses_a"));
        await store().enqueueTurn(newTurn("trn_a2", "ses_a"));
        await store().enqueueTurn(newTurn("trn_b", "ses_b"));
        await store().enqueueTurn(newTurn("trn_c", "ses_c"));
        await store().enqueueTurn(newTurn("trn_d", "ses_d"));
        await store().enqueueTurn(newTurn("trn_e", "ses_e"));
        await store().enqueueTurn(newTurn("trn_remote", "ses_remote"));
        await store().enqueueTurn(newTurn("trn_owner", "ses_owner"));
        await store().claimNextTurn({ sessionId: "ses_b", now: T0 });
        await store().claimNextTurn({ sessionId: "ses_c", now: T0 });
        await store().finishTurn({ turnId: "trn_c", status: "done", endedAt: T0 + 1 });
        await store().finishTurn({ turnId: "trn_d", status: "stopped", endedAt: T0 + 1 });
        await store().deleteSession({ id: "ses_e", at: T0 + 1 });

        // ses_a (two turns, counted once) and ses_b (running).
        expect(await store().countActiveSessionsCreatedBy(conversation)).toBe(2);
        expect(await store().countActiveSessionsCreatedBy({ relay: "desk", session: "ses_parent" })).toBe(1);
        expect(await store().countActiveSessionsCreatedBy({ relay: null, session: "ses_owner" })).toBe(0);
      });

      it("marks every running turn as error after a restart, leaving queued ones", async () => {
        await store().createSession(newSession("ses_1"));
        await store().createSession(newSession("ses_2"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        await store().enqueueTurn(newTurn("trn_2", "ses_1"));
        await store().enqueueTurn(newTurn("trn_3", "ses_2"));
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 });
        await store().claimNextTurn({ sessionId: "ses_2", now: T0 });

        const failed = await store().failRunningTurns({ error: "relay restarted", endedAt: T0 + 1000 });
        expect(ids(failed).sort()).toEqual(["trn_1", "trn_3"]);
        expect(failed.every((t) => t.status === "error" && t.error === "relay restarted")).toBe(true);
        expect(await store().getTurn("trn_1")).toMatchObject({ status: "error", endedAt: T0 + 1000 });
        expect(await store().getTurn("trn_2")).toMatchObject({ status: "queued" });
        expect(await store().failRunningTurns({ error: "relay restarted", endedAt: T0 + 2000 })).toEqual([]);
        expect(await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 3000 })).toMatchObject({
          id: "trn_2",
        });
      });

      it("DESIGN §9: records who claimed a turn; only that runner, with that token, ends it", async () => {
        await store().createSession(newSession("ses_1"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        const runner = { lease: "runner:run_a", token: 3 };
        expect(await store().claimNextTurn({ sessionId: "ses_1", now: T0, runner })).toMatchObject({
          status: "running",
          runner,
        });
        const end = (by: { lease: string; token: number }) =>
          store().finishTurn({ turnId: "trn_1", status: "done", reply: "ok", endedAt: T0 + 1, runner: by });
        expect(await end({ lease: "runner:run_b", token: 3 })).toBeNull();
        expect(await end({ lease: "runner:run_a", token: 2 })).toBeNull();
        expect(await store().getTurn("trn_1")).toMatchObject({ status: "running", runner });
        expect(await end(runner)).toMatchObject({ status: "done", reply: "ok", runner });
        expect(await end(runner)).toBeNull();
      });

      it("DESIGN §9: fails the running turns of one runner, or those claimed without one, and no other", async () => {
        for (const id of ["ses_a", "ses_b", "ses_c"]) {
          await store().createSession(newSession(id));
          await store().enqueueTurn(newTurn(`trn_${id}`, id));
        }
        await store().claimNextTurn({ sessionId: "ses_a", now: T0, runner: { lease: "runner:a", token: 1 } });
        await store().claimNextTurn({ sessionId: "ses_b", now: T0, runner: { lease: "runner:b", token: 1 } });
        await store().claimNextTurn({ sessionId: "ses_c", now: T0 });
        const gone = await store().failRunningTurns({ error: "gone", endedAt: T0 + 1, runner: "runner:a" });
        expect(ids(gone)).toEqual(["trn_ses_a"]);
        const unclaimed = await store().failRunningTurns({ error: "old", endedAt: T0 + 1, runner: null });
        expect(ids(unclaimed)).toEqual(["trn_ses_c"]);
        expect(await store().getTurn("trn_ses_b")).toMatchObject({ status: "running" });
      });

      it("reads one message by id", async () => {
        await store().createSession(newSession("ses_1"));
        const message = await store().appendMessage(
          newMessage("msg_1", "ses_1", { text: "Run the tests.", turnId: "trn_1", provenance }),
        );
        expect(await store().getMessage("msg_1")).toEqual(message);
        expect(await store().getMessage("msg_missing")).toBeNull();
      });

      it("finds the turn a prompt message started", async () => {
        await store().createSession(newSession("ses_1"));
        await store().appendMessage(newMessage("msg_1", "ses_1"));
        await store().appendMessage(newMessage("msg_2", "ses_1"));
        await store().enqueueTurn(newTurn("trn_1", "ses_1", { promptMessageId: "msg_1" }));
        await store().enqueueTurn(newTurn("trn_event", "ses_1"));
        await store().claimNextTurn({ sessionId: "ses_1", now: T0 + 1 });
        await store().finishTurn({ turnId: "trn_1", status: "done", reply: "ok", endedAt: T0 + 2 });

        expect(await store().findTurnByPromptMessage("msg_1")).toMatchObject({
          id: "trn_1",
          status: "done",
          promptMessageId: "msg_1",
        });
        expect(await store().findTurnByPromptMessage("msg_2")).toBeNull();
        expect(await store().findTurnByPromptMessage("msg_missing")).toBeNull();
      });
    });

    // What the databases refuse, every store refuses: a memory store that took it would hide a
    // bug the relay only meets on its real store.
    describe("what a database refuses", () => {
      const storageError = { code: "STORAGE" };

      it("a session, message or turn whose id is stored is refused, and the first stays", async () => {
        await store().createSession(newSession("ses_1", { title: "First" }));
        await expect(store().createSession(newSession("ses_1", { title: "Second" }))).rejects.toMatchObject(
          storageError,
        );
        expect((await store().getSession("ses_1"))?.title).toBe("First");

        await store().appendMessage(newMessage("msg_1", "ses_1", { text: "first" }));
        await expect(
          store().appendMessage(newMessage("msg_1", "ses_1", { text: "second" })),
        ).rejects.toMatchObject(storageError);
        await store().enqueueTurn(newTurn("trn_1", "ses_1"));
        await expect(store().enqueueTurn(newTurn("trn_1", "ses_1"))).rejects.toMatchObject(storageError);
        expect((await store().listMessages("ses_1")).map((message) => message.text)).toEqual(["first"]);
      });

      it("a message or turn of a session never stored is refused", async () => {
        await expect(store().appendMessage(newMessage("msg_1", "ses_none"))).rejects.toMatchObject(
          storageError,
        );
        await expect(store().enqueueTurn(newTurn("trn_1", "ses_none"))).rejects.toMatchObject(storageError);
        expect(await store().getMessage("msg_1")).toBeNull();
        expect(await store().getTurn("trn_1")).toBeNull();
      });

      it("a batch with one refused row stores none of it", async () => {
        await store().createSession(newSession("ses_1"));
        await store().appendMessage(newMessage("msg_2", "ses_1"));
        await expect(
          store().appendMessages([newMessage("msg_1", "ses_1"), newMessage("msg_2", "ses_1")]),
        ).rejects.toMatchObject(storageError);
        await expect(
          store().enqueueTurns([newTurn("trn_1", "ses_1"), newTurn("trn_2", "ses_none")]),
        ).rejects.toMatchObject(storageError);
        expect(ids(await store().listMessages("ses_1"))).toEqual(["msg_2"]);
        expect(await store().getTurn("trn_1")).toBeNull();
      });

      it("text holding a NUL character is refused, and nothing is stored", async () => {
        await expect(store().createSession(newSession("ses_1", { title: "a\u0000b" }))).rejects.toMatchObject(
          storageError,
        );
        expect(await store().getSession("ses_1")).toBeNull();
        await store().createSession(newSession("ses_1"));
        await expect(
          store().appendMessage(newMessage("msg_1", "ses_1", { text: "x\u0000" })),
        ).rejects.toMatchObject(storageError);
        expect(await store().listMessages("ses_1")).toEqual([]);
      });

      it("an instant a date cannot hold is refused", async () => {
        await expect(
          store().createSession(newSession("ses_1", { createdAt: Number.MAX_SAFE_INTEGER })),
        ).rejects.toMatchObject(storageError);
        await expect(
          store().createSession(newSession("ses_2", { createdAt: Number.NaN })),
        ).rejects.toMatchObject(storageError);
        expect(await store().getSessions(["ses_1", "ses_2"])).toEqual([]);
      });
    });
  });
}
