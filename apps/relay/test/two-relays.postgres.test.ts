import { afterEach, describe, expect, it } from "vitest";
import { createTestRelay, eventually, OWNER_TOKEN, type TestRelay } from "./harness";
import { ownerCall, type RelayProcess, spawnRelay, stopIfRunning } from "./process";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import { connectEvents, listen, SseReader } from "./support/sse";

interface Turn {
  readonly id: string;
  readonly status: string;
  readonly reply: string | null;
  readonly error: string | null;
}

const turnsOf = async (relay: TestRelay, sessionId: string) =>
  (await relay.ownerJson<{ turns: Turn[] }>("GET", `/v1/owner/sessions/${sessionId}`)).turns;

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "several relay processes on one Postgres (DESIGN §9, issue 8 item 4)",
  { timeout: 90_000 },
  () => {
    const database = useScratchPostgres();
    const processes: RelayProcess[] = [];
    afterEach(() => {
      for (const process of processes.splice(0)) {
        stopIfRunning(process);
      }
    });

    it("a second relay starting leaves the first's running turn alone: its reply arrives", async () => {
      const first = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const session = await first.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: "Long one",
        text: "!sleep 1500\n!reply from the first relay",
      });
      await eventually(async () =>
        (await turnsOf(first, session.id))[0]?.status === "running" ? true : undefined,
      );

      const second = await createTestRelay({ name: "desk", databaseUrl: database().url });
      expect((await turnsOf(second, session.id))[0]?.status).toBe("running");

      const [turn] = await eventually(async () => {
        const turns = await turnsOf(first, session.id);
        return turns[0]?.status === "done" ? turns : undefined;
      }, 20_000);
      expect(turn).toMatchObject({ status: "done", reply: "from the first relay", error: null });
    });

    it("a wait on one relay sees a turn another relay ran end, and a card answered through another relay lets the call go on, within a poll", async () => {
      const runner = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const watcher = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const worker = await runner.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: "Worker",
        text: "!sleep 1000\n!reply done on the runner",
      });
      const editor = await watcher.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        provider: "external",
        title: "Editor",
      });
      const token = await watcher.agentToken(editor.id);
      const waitStarted = Date.now();
      const waited = await watcher.tool(token, {
        action: "wait",
        relay: "this",
        session: worker.id,
        wait_seconds: 60,
      });
      expect(await waited.json()).toMatchObject({
        ok: true,
        status: "done",
        reply: { text: "done on the runner" },
      });
      // The turn takes a second; without a look at other processes' changes the wait would last 60 s.
      expect(Date.now() - waitStarted).toBeLessThan(10_000);

      // The editor's first create_session waits on a card, which the owner answers through the other relay.
      const call = watcher.tool(token, {
        action: "create_session",
        relay: "this",
        text: "!reply hi",
        wait_seconds: 0,
      });
      const [card] = await eventually(async () => {
        const { cards } = await runner.ownerJson<{ cards: { id: string }[] }>(
          "GET",
          "/v1/owner/cards?status=pending",
        );
        return cards.length > 0 ? cards : undefined;
      });
      const answeredAt = Date.now();
      await runner.ownerJson("POST", `/v1/owner/cards/${card?.id}`, { choice: "allow" });
      expect(await (await call).json()).toMatchObject({ ok: true });
      expect(Date.now() - answeredAt).toBeLessThan(5_000);
    });

    it("the console's live Inbox across processes: a card raised through one relay is on the other's owner stream, answered there, and the call's 🛰️ line is read back there", async () => {
      const caller = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const consoleSide = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const served = await listen(consoleSide.relay.app);
      const stream = new SseReader(await connectEvents(served.base, { token: OWNER_TOKEN }));
      const lead = await caller.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        provider: "external",
        title: "Lead",
      });
      const token = await caller.agentToken(lead.id);
      const call = caller.tool(token, {
        action: "create_session",
        relay: "this",
        text: "!reply hi",
        wait_seconds: 0,
      });
      await stream.until((s) => s.events.some((e) => e.event === "card_raised"));
      const raised = JSON.parse(stream.events.find((e) => e.event === "card_raised")?.data ?? "{}");
      expect(raised).toMatchObject({
        session: lead.id,
        title: "Lead",
        action: "create_session",
        target_relay: "desk",
      });
      await consoleSide.ownerJson("POST", `/v1/owner/cards/${raised.card_id}`, { choice: "allow" });
      expect(await (await call).json()).toMatchObject({ ok: true });
      await stream.until((s) => s.events.some((e) => e.event === "card_answered"));
      expect(JSON.parse(stream.events.find((e) => e.event === "card_answered")?.data ?? "{}")).toMatchObject({
        card_id: raised.card_id,
        status: "allowed",
      });
      // The calling process writes the line beside the call; the other reads it once it is there.
      const calls = await eventually(async () => {
        const { toolCalls } = await consoleSide.ownerJson<{ toolCalls: { action: string; ok: boolean }[] }>(
          "GET",
          `/v1/owner/sessions/${lead.id}`,
        );
        return toolCalls.length > 0 ? toolCalls : undefined;
      });
      expect(calls).toMatchObject([{ action: "create_session", ok: true }]);
    });

    it("kill -9 of the first: the second fails its turn at its next heartbeat (this host, the pid is gone: no wait for the lease's expiry) and runs the queued prompt", async () => {
      const first = spawnRelay({
        RELAY_NAME: "desk",
        RELAY_OWNER_TOKEN: OWNER_TOKEN,
        DATABASE_URL: database().url,
      });
      processes.push(first);
      const base = await first.listening;
      const created = await ownerCall<{ id: string }>(base, OWNER_TOKEN, {
        method: "POST",
        path: "/v1/owner/sessions",
        body: { title: "Stuck", text: "!sleep 600000" },
      });
      expect(created.status).toBe(200);
      const sessionId = created.body.id;
      await ownerCall(base, OWNER_TOKEN, {
        method: "POST",
        path: `/v1/owner/sessions/${sessionId}/messages`,
        body: { text: "!reply after the crash" },
      });

      const second = await createTestRelay({ name: "desk", databaseUrl: database().url });
      await eventually(async () =>
        (await turnsOf(second, sessionId))[0]?.status === "running" ? true : undefined,
      );
      first.child.kill("SIGKILL");
      await first.exited;
      const killedAt = Date.now();

      const turns = await eventually(async () => {
        const all = await turnsOf(second, sessionId);
        return all[1]?.status === "done" ? all : undefined;
      }, 40_000);
      // A heartbeat every 5 s; the lease would have lasted 10 to 15 s more.
      expect(Date.now() - killedAt).toBeLessThanOrEqual(10_000);
      expect(turns[0]).toMatchObject({
        status: "error",
        error: expect.stringContaining("relay process running this turn went away"),
      });
      expect(turns[1]).toMatchObject({ status: "done", reply: "after the crash" });
    });
  },
);
