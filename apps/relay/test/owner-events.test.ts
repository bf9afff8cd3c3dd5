import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@oar/core";
import { FakeClock } from "@oar/core/testing";
import { startTcpProxy } from "@oar/storage/testing";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { createTestRelay, eventually, OWNER_TOKEN, type TestRelay } from "./harness";
import { TEST_POSTGRES_URL, throughPort, useScratchPostgres } from "./support/postgres";
import { connectEvents, listen, type SseEvent, SseReader } from "./support/sse";

const dataDir = await mkdtemp(join(tmpdir(), "oar-events-"));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface Turn {
  readonly status: string;
}

async function openStream(
  base: string,
  options: { readonly lastEventId?: string; readonly query?: string } = {},
): Promise<SseReader> {
  const response = await connectEvents(base, { token: OWNER_TOKEN, ...options });
  expect(response.status).toBe(200);
  return new SseReader(response);
}

async function scriptSession(relay: TestRelay, title: string, text: string): Promise<string> {
  const { id } = await relay.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    provider: "script",
    title,
    text,
  });
  return id;
}

async function turnDone(relay: TestRelay, sessionId: string): Promise<void> {
  await eventually(async () => {
    const { turns } = await relay.ownerJson<{ turns: Turn[] }>("GET", `/v1/owner/sessions/${sessionId}`);
    return turns.length > 0 && turns.every((turn) => turn.status === "done") ? true : undefined;
  });
}

const ofSession = (events: readonly SseEvent[], sessionId: string) =>
  events.filter((event) => (JSON.parse(event.data) as { session?: unknown }).session === sessionId);

const ids = (events: readonly SseEvent[]) => events.map((event) => Number(event.id));

describe("GET /v1/owner/events (DESIGN §4)", { timeout: 60_000 }, () => {
  it("streams turn_started, turn_end and session_archived of the owner's script session, with increasing ids", async () => {
    const relay = await createTestRelay();
    const { base } = await listen(relay.relay.app);
    const response = await connectEvents(base, { token: OWNER_TOKEN });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const stream = new SseReader(response);

    const sessionId = await scriptSession(relay, "Streamed", "!reply streamed hello");
    await stream.until((s) => ofSession(s.events, sessionId).some((e) => e.event === "turn_end"));
    await relay.ownerJson("POST", `/v1/owner/sessions/${sessionId}/archive`);
    await stream.until((s) => ofSession(s.events, sessionId).some((e) => e.event === "session_archived"));

    const mine = ofSession(stream.events, sessionId);
    expect(mine.map((e) => e.event)).toEqual(["turn_started", "turn_end", "session_archived"]);
    const seen = ids(stream.events);
    expect(
      seen.every((id, index) => Number.isSafeInteger(id) && (index === 0 || id > (seen[index - 1] ?? 0))),
    ).toBe(true);
    for (const event of mine) {
      expect(event.data).not.toContain("\n");
      expect(JSON.parse(event.data)).toMatchObject({
        kind: event.event,
        session: sessionId,
        title: "Streamed",
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    }
    expect(JSON.parse(mine[1]?.data ?? "{}")).toMatchObject({ status: "done", text: "streamed hello" });

    // `?after=` resumes as the header does; the header wins over it (an EventSource reconnects to its first URL).
    const [first, second] = mine;
    const byQuery = await openStream(base, { query: `?after=${first?.id}` });
    await byQuery.until((s) => ofSession(s.events, sessionId).length === 2);
    expect(ids(ofSession(byQuery.events, sessionId))).toEqual(ids(mine.slice(1)));
    const byHeader = await openStream(base, { query: `?after=${first?.id}`, lastEventId: second?.id ?? "" });
    await byHeader.until((s) => ofSession(s.events, sessionId).length === 1);
    expect(ids(ofSession(byHeader.events, sessionId))).toEqual(ids(mine.slice(2)));
    // `?from=start`: the whole outbox.
    const fromStart = await openStream(base, { query: "?from=start" });
    await fromStart.until((s) => ofSession(s.events, sessionId).length === 3);
    const [oldest] = await relay.relay.services.engine.owner.listEvents({ after: 0, limit: 1 });
    expect(ids(fromStart.events)[0]).toBe(oldest?.seq);
  });

  it("resumes after a restart with Last-Event-ID: exactly the later events, no repeat, no gap", async () => {
    const first = await createTestRelay({ dataDir, keepOpen: true });
    const firstServer = await listen(first.relay.app);
    const reading = await openStream(firstServer.base);
    const early = await scriptSession(first, "Before", "!reply before the restart");
    await reading.until((s) => ofSession(s.events, early).some((e) => e.event === "turn_end"));
    const lastSeen = reading.events.at(-1)?.id ?? "";
    await reading.close();

    // Made while no client reads; a stream still open ends cleanly when the relay closes.
    await first.ownerJson("POST", `/v1/owner/sessions/${early}/archive`);
    const open = await openStream(firstServer.base);
    await first.relay.close();
    await open.untilEnd();
    await firstServer.close();

    const second = await createTestRelay({ dataDir });
    const secondServer = await listen(second.relay.app);
    const later = await scriptSession(second, "After", "!reply after the restart");
    await turnDone(second, later);
    await second.ownerJson("POST", `/v1/owner/sessions/${later}/archive`);

    const expected = (
      await second.relay.services.engine.owner.listEvents({ after: Number(lastSeen), limit: 500 })
    ).map((row) => row.seq);
    expect(expected.length).toBeGreaterThanOrEqual(4);
    const resumed = await openStream(secondServer.base, { lastEventId: lastSeen });
    await resumed.until((s) => s.events.length >= expected.length);
    await resumed.readDuring(1_500);
    expect(ids(resumed.events)).toEqual(expected);
    expect(ofSession(resumed.events, early).map((e) => e.event)).toEqual(["session_archived"]);
    expect(ofSession(resumed.events, later).map((e) => e.event)).toEqual([
      "turn_started",
      "turn_end",
      "session_archived",
    ]);
  });

  it("refuses a wrong or missing token with 401, and a malformed position with 400 naming it", async () => {
    const relay = await createTestRelay();
    const { base } = await listen(relay.relay.app);
    for (const token of ["not-the-owner-token", undefined]) {
      const response = await connectEvents(base, token === undefined ? {} : { token });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_AUTH" });
    }
    const agent = await relay.agentToken(await scriptSession(relay, "Agent", "!reply hi"));
    expect((await connectEvents(base, { token: agent })).status).toBe(401);

    const refusals: [Parameters<typeof connectEvents>[1], string][] = [
      [{ lastEventId: "abc" }, "Last-Event-ID"],
      [{ lastEventId: "-1" }, "Last-Event-ID"],
      [{ lastEventId: "1.5" }, "Last-Event-ID"],
      [{ lastEventId: "99999" }, "Last-Event-ID"],
      [{ query: "?after=x" }, "after"],
      [{ query: "?from=end" }, "from"],
      [{ query: "?since=3" }, "since"],
    ];
    for (const [options, named] of refusals) {
      const response = await connectEvents(base, { token: OWNER_TOKEN, ...options });
      expect(response.status, JSON.stringify(options)).toBe(400);
      const body = (await response.json()) as { ok: boolean; code: string; error: string };
      expect(body).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
      expect(body.error).toContain(named);
    }
  });

  it("writes a keep-alive comment every 25 s of the relay's clock", async () => {
    const clock = new FakeClock(Date.now());
    const relay = await createTestRelay({ overrides: { clock } });
    const { base } = await listen(relay.relay.app);
    const stream = await openStream(base);
    clock.advance(24_999);
    await stream.readDuring(200);
    expect(stream.comments).toEqual([]);
    clock.advance(1);
    await stream.until((s) => s.comments.length === 1);
    clock.advance(25_000);
    await stream.until((s) => s.comments.length === 2);
    clock.advance(25_000);
    await stream.until((s) => s.comments.length === 3);
    expect(stream.comments).toEqual(["keep-alive", "keep-alive", "keep-alive"]);
    expect(stream.events).toEqual([]);
  });
});

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  "GET /v1/owner/events with two relay processes on one Postgres (DESIGN §9)",
  { timeout: 60_000 },
  () => {
    const database = useScratchPostgres();

    it("a stream on relay B carries the events of a turn relay A ran", async () => {
      const a = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const b = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const { base } = await listen(b.relay.app);
      const stream = await openStream(base);
      const sessionId = await scriptSession(a, "On A", "!reply ran on A");
      await stream.until((s) => ofSession(s.events, sessionId).some((e) => e.event === "turn_end"), 15_000);
      expect(ofSession(stream.events, sessionId).map((e) => e.event)).toEqual(["turn_started", "turn_end"]);
      const seen = ids(stream.events);
      expect([...seen].sort((x, y) => x - y)).toEqual(seen);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it("a stream whose relay loses the database stays open and, once it is back, sends what was written meanwhile", async () => {
      const target = new URL(TEST_POSTGRES_URL ?? "");
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      onTestFinished(async () => {
        await proxy.restore();
        await proxy.close();
      });
      const said: string[] = [];
      const record = (message: string) => {
        said.push(message);
      };
      const logger: Logger = { debug: record, info: record, warn: record, error: record };
      const writer = await createTestRelay({ name: "desk", databaseUrl: database().url });
      const reader = await createTestRelay({
        name: "desk",
        databaseUrl: throughPort(database().url, proxy.port),
        overrides: { logger },
      });
      const { base } = await listen(reader.relay.app);
      const stream = await openStream(base);
      const before = await scriptSession(writer, "Before", "!reply before the outage");
      await stream.until((s) => ofSession(s.events, before).some((e) => e.event === "turn_end"));
      const lastSeen = Number(stream.events.at(-1)?.id);

      await proxy.cut();
      const during = await scriptSession(writer, "During", "!reply during the outage");
      await turnDone(writer, during);
      await eventually(async () =>
        said.includes("owner event stream: reading the outbox failed; retrying every poll")
          ? true
          : undefined,
      );
      await stream.readDuring(1_500);
      expect(stream.ended).toBe(false);
      expect(ofSession(stream.events, during)).toEqual([]);

      await proxy.restore();
      await stream.until((s) => ofSession(s.events, during).some((e) => e.event === "turn_end"), 20_000);
      const expected = (await writer.relay.services.engine.owner.listEvents({ after: lastSeen, limit: 500 }))
        .filter((row) => row.seq <= Number(stream.events.at(-1)?.id))
        .map((row) => row.seq);
      expect(ids(stream.events.filter((event) => Number(event.id) > lastSeen))).toEqual(expected);
      expect(said).toContain("owner event stream: reading the outbox again");
    });
  },
);
