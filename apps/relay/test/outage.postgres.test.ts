import type { LogFields, Logger } from "@oar/core";
import { startTcpProxy, type TcpProxy } from "@oar/storage/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestRelay, eventually, type TestRelay } from "./harness";
import { TEST_POSTGRES_URL, throughPort, useScratchPostgres } from "./support/postgres";

/** A logger that keeps what it was told, so a test can see the relay meet the outage. */
function recordingLogger(): Logger & { readonly said: string[] } {
  const said: string[] = [];
  const record = (message: string, _fields?: LogFields) => {
    said.push(message);
  };
  return { said, debug: record, info: record, warn: record, error: record };
}

interface Turn {
  readonly id: string;
  readonly status: string;
  readonly reply: string | null;
}

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "the database goes away: Postgres behind a proxy that is cut, frozen and restored (DESIGN §4, issue 8 item 3)",
  { timeout: 60_000 },
  () => {
    const database = useScratchPostgres();
    let proxy: TcpProxy;
    let t: TestRelay;
    let logger: ReturnType<typeof recordingLogger>;

    beforeEach(async () => {
      const target = new URL(TEST_POSTGRES_URL ?? "");
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      logger = recordingLogger();
      t = await createTestRelay({
        databaseUrl: throughPort(database().url, proxy.port),
        overrides: { logger, approvalCards: false },
      });
    });
    afterEach(async () => {
      await proxy.restore();
      await proxy.close();
    });

    const turnsOf = async (sessionId: string) =>
      (await t.ownerJson<{ turns: Turn[] }>("GET", `/v1/owner/sessions/${sessionId}`)).turns;

    /** Until the relay says it retries a turn's end (the turn ended with the database away). */
    const endIsRetried = () =>
      eventually(
        async () =>
          logger.said.some((line) => line.includes("ending a turn is retried")) ? true : undefined,
        20_000,
      );

    it("requests during an outage answer 503 REMOTE_RELAY_UNAVAILABLE and change nothing; the relay recovers by itself", async () => {
      const lead = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", { title: "Lead" });
      const token = await t.agentToken(lead.id);
      const before = await t.ownerJson<{ sessions: unknown[] }>("GET", "/v1/owner/sessions");

      await proxy.cut();
      const listed = await t.owner("GET", "/v1/owner/sessions");
      expect(listed.status).toBe(503);
      expect(await listed.json()).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_UNAVAILABLE",
        error: expect.stringContaining("does not answer"),
      });
      const created = await t.owner("POST", "/v1/owner/sessions", { title: "During the outage" });
      expect(created.status).toBe(503);
      expect(await created.json()).toMatchObject({ code: "REMOTE_RELAY_UNAVAILABLE" });
      const health = await t.relay.app.request("/healthz");
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({
        ok: false,
        name: "desk",
        version: expect.any(String),
        database: "unreachable",
      });
      // The agent surface: the same code, never REMOTE_RELAY_INTERNAL.
      const called = await t.tool(token, { action: "list_sessions", relay: "this" });
      expect(await called.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNAVAILABLE" });

      await proxy.restore();
      const after = await eventually(async () => {
        const response = await t.owner("GET", "/v1/owner/sessions");
        return response.status === 200 ? ((await response.json()) as { sessions: unknown[] }) : undefined;
      }, 20_000);
      expect(after.sessions).toEqual(before.sessions);
      expect((await t.relay.app.request("/healthz")).status).toBe(200);
      expect(await (await t.tool(token, { action: "list_sessions", relay: "this" })).json()).toMatchObject({
        ok: true,
      });
    });

    it("a turn that ends while the database is away is written once it is back, and the next prompt runs", async () => {
      const session = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: "Worker",
        text: "!sleep 1500\n!reply first",
      });
      await t.ownerJson("POST", `/v1/owner/sessions/${session.id}/messages`, { text: "!reply second" });
      await eventually(async () => ((await turnsOf(session.id))[0]?.status === "running" ? true : undefined));

      await proxy.cut();
      // The turn ends during the outage: the relay says it retries the write.
      await endIsRetried();
      await proxy.restore();

      const turns = await eventually(async () => {
        const all = await turnsOf(session.id).catch(() => undefined);
        return all?.length === 2 && all.every((turn) => turn.status === "done") ? all : undefined;
      }, 30_000);
      expect(turns.map((turn) => turn.reply)).toEqual(["first", "second"]);
    });

    it("a turn that ended during an outage shows its end within 2 s of the database answering again, not at the retry backoff's next step", async () => {
      const session = await t.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
        title: "Worker",
        text: "!sleep 3000\n!reply ended in the outage",
      });
      await eventually(async () => ((await turnsOf(session.id))[0]?.status === "running" ? true : undefined));

      await proxy.cut();
      await endIsRetried();
      // 8 s into the outage the end's retries wait 5 s each (0.2 s doubling), the last one began
      // about 1.8 s before: waiting for the next one would show the end some 3 s after the restore.
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      await proxy.restore();
      const restoredAt = Date.now();

      const [turn] = await eventually(async () => {
        const turns = await turnsOf(session.id).catch(() => undefined);
        return turns?.[0]?.status === "done" ? turns : undefined;
      }, 20_000);
      const shownAfter = Date.now() - restoredAt;
      console.info(`outage: the turn's end showed ${shownAfter} ms after the database answered again`);
      expect(turn).toMatchObject({ status: "done", reply: "ended in the outage" });
      expect(shownAfter).toBeLessThanOrEqual(2_000);
    });

    it("a frozen link: a request answers 503 within seconds instead of hanging, and the relay recovers", async () => {
      await t.ownerJson("GET", "/v1/owner/sessions");
      proxy.freeze();
      const started = Date.now();
      const listed = await t.owner("GET", "/v1/owner/sessions");
      expect(listed.status).toBe(503);
      expect(await listed.json()).toMatchObject({ code: "REMOTE_RELAY_UNAVAILABLE" });
      // Before the deadlines a frozen link held requests 40 s and more.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect((await t.relay.app.request("/healthz")).status).toBe(503);

      await proxy.restore();
      await eventually(
        async () => ((await t.owner("GET", "/v1/owner/sessions")).status === 200 ? true : undefined),
        20_000,
      );
    });
  },
);
