import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { groupBy } from "@oar/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestRelay, eventually, OWNER_TOKEN } from "./harness";
import { type Exposition, parseExposition, samplesOf, sampleValue } from "./support/prometheus-text";
import { type ServedRelay, type SessionView, serveRelay, turnsEnded } from "./support/served-relay";

const TOOL_CALLS = 3;

/** GET /metrics over HTTP with the owner token (or another bearer), parsed. */
async function scrape(served: ServedRelay, headers: Record<string, string> = {}): Promise<Exposition> {
  const response = await fetch(`${served.base}/metrics`, {
    headers: { Authorization: `Bearer ${OWNER_TOKEN}`, ...headers },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await response.text());
}

/** How much a sample grew between two scrapes. */
const grew = (before: Exposition, after: Exposition, name: string, labels: Record<string, string> = {}) =>
  sampleValue(after, name, labels) - sampleValue(before, name, labels);

describe("GET /metrics over HTTP (issue 33: the metrics an operator expects)", { timeout: 60_000 }, () => {
  const t = {} as {
    root: string;
    served: ServedRelay;
    planner: { id: string; token: string };
    echo: { id: string };
  };
  const tool = (call: Record<string, unknown>) => t.served.tool(t.planner.token, { relay: "this", ...call });
  const post = (id: string, text: string) =>
    t.served.ownerJson("POST", `/v1/owner/sessions/${id}/messages`, { text });
  const plannerMessages = async () =>
    (await t.served.ownerJson<SessionView>("GET", `/v1/owner/sessions/${t.planner.id}`)).messages;

  beforeAll(async () => {
    t.root = await mkdtemp(join(tmpdir(), "oar-metrics-"));
    t.served = await serveRelay({
      dataDir: join(t.root, "data"),
      allowedRoots: [t.root],
      // The cards are tested elsewhere: the calls here run at once.
      overrides: { approvalCards: false },
    });
    const planner = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
      provider: "external",
      title: "Planner",
    });
    t.planner = { id: planner.id, token: await t.served.agentToken(planner.id) };
    t.echo = await t.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", { title: "Echo" });
  });
  afterAll(async () => {
    await t.served?.close();
    await rm(t.root, { recursive: true, force: true });
  });

  it("is refused without the owner token, with the envelope of every owner route", async () => {
    for (const authorization of [undefined, `Bearer ${t.planner.token}`, "Bearer not-a-token-at-all"]) {
      const response = await fetch(`${t.served.base}/metrics`, {
        headers: authorization === undefined ? {} : { Authorization: authorization },
      });
      expect(response.status, authorization).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_AUTH" });
    }
  });

  it("moves each figure by exactly what a known workload did", async () => {
    const before = await scrape(t.served);

    // One script turn, run to its end.
    await post(t.echo.id, "hello");
    await turnsEnded(t.served, t.echo.id);

    for (let i = 0; i < TOOL_CALLS; i++) {
      expect(await tool({ action: "list_sessions" })).toMatchObject({ ok: true });
    }

    // A wait held while a turn sleeps: counted in flight, then no more.
    await post(t.echo.id, "!sleep 1500");
    const waiting = tool({ action: "wait", session: t.echo.id, wait_seconds: 30 });
    const holding = await eventually(async () => {
      const now = await scrape(t.served);
      return sampleValue(now, "oar_relay_held_waits") === 1 ? now : undefined;
    });
    expect(sampleValue(holding, "oar_relay_running_turns")).toBe(1);
    expect(await waiting).toMatchObject({ ok: true, status: "done" });

    // A subscription that delivers: an error is urgent, sent at once.
    expect(await tool({ action: "subscribe", sessions: [t.echo.id], events: ["error"] })).toMatchObject({
      ok: true,
    });
    await post(t.echo.id, "!error boom");
    await eventually(async () =>
      (await plannerMessages()).some((m) => m.role === "relay" && m.text.includes('error "boom"'))
        ? true
        : undefined,
    );

    // A schedule that fires in the Planner's own conversation.
    const at = new Date(Date.now() + 1_000).toISOString();
    expect(await tool({ action: "schedule", title: "Ping", at, text: "ping" })).toMatchObject({ ok: true });
    await eventually(async () =>
      (await plannerMessages()).some((m) => m.text.startsWith("[relay schedule ")) ? true : undefined,
    );

    // Everything routed, nothing queued or running any more.
    const after = await eventually(async () => {
      const now = await scrape(t.served);
      const settled =
        sampleValue(now, "oar_relay_outbox_lag_events") === 0 &&
        sampleValue(now, "oar_relay_queued_turns") === 0 &&
        sampleValue(now, "oar_relay_running_turns") === 0;
      return settled ? now : undefined;
    });

    expect(grew(before, after, "oar_relay_turns_total", { provider: "script", status: "done" })).toBe(2);
    expect(grew(before, after, "oar_relay_turns_total", { provider: "script", status: "error" })).toBe(1);
    const calls = (action: string) =>
      grew(before, after, "oar_relay_tool_calls_total", { action, outcome: "ok" });
    expect([calls("list_sessions"), calls("wait"), calls("subscribe"), calls("schedule")]).toEqual([
      TOOL_CALLS,
      1,
      1,
      1,
    ]);
    expect(sampleValue(after, "oar_relay_held_waits")).toBe(0);
    expect(grew(before, after, "oar_relay_delivery_lateness_seconds_count")).toBe(1);
    expect(grew(before, after, "oar_relay_schedule_lateness_seconds_count")).toBe(1);
    expect(sampleValue(after, "oar_relay_database_up")).toBe(1);
    // The Planner's calls: each one POST /v1/tool, answered 200.
    expect(
      grew(before, after, "oar_relay_http_requests_total", {
        method: "POST",
        route: "/v1/tool",
        status: "200",
      }),
    ).toBe(TOOL_CALLS + 3);
    expect(
      grew(before, after, "oar_relay_db_query_duration_seconds_count", { operation: "transaction" }),
    ).toBeGreaterThan(0);
    expect(sampleValue(after, "oar_relay_db_pool_max_connections", { driver: "pglite" })).toBe(1);
  });

  it("every histogram's buckets are cumulative and end at its count; every relay family has its help", async () => {
    const now = await scrape(t.served);
    for (const name of [
      "oar_relay_delivery_lateness_seconds",
      "oar_relay_schedule_lateness_seconds",
      "oar_relay_http_request_duration_seconds",
      "oar_relay_db_query_duration_seconds",
    ]) {
      expect(now.types.get(name), name).toBe("histogram");
      const series = groupBy(samplesOf(now, `${name}_bucket`), (s) => {
        const { le: _le, ...rest } = s.labels;
        return JSON.stringify(rest);
      });
      expect(series.size, name).toBeGreaterThan(0);
      for (const [labels, buckets] of series) {
        const counts = buckets.map((s) => s.value);
        expect(counts, `${name} ${labels}`).toEqual([...counts].sort((a, b) => a - b));
        expect(buckets.at(-1)?.labels.le).toBe("+Inf");
        expect(buckets.at(-1)?.value).toBe(sampleValue(now, `${name}_count`, JSON.parse(labels)));
      }
    }
    const families = [...now.types.keys()].filter((name) => name.startsWith("oar_relay_"));
    expect(families.length).toBeGreaterThanOrEqual(14);
    for (const name of families) {
      expect(now.help.get(name)?.length ?? 0, name).toBeGreaterThan(10);
    }
    // The process's own, from prom-client.
    expect(sampleValue(now, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sampleValue(now, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });

  it("answers with the caller's sane X-Request-Id, and a new one for anything else", async () => {
    const given = await fetch(`${t.served.base}/metrics`, {
      headers: { Authorization: `Bearer ${OWNER_TOKEN}`, "X-Request-Id": "scrape-42" },
    });
    expect(given.headers.get("x-request-id")).toBe("scrape-42");
    const odd = await fetch(`${t.served.base}/metrics`, {
      headers: { Authorization: `Bearer ${OWNER_TOKEN}`, "X-Request-Id": "no spaces; or <tags>" },
    });
    expect(odd.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("two relays in one process keep their own figures", async () => {
    const other = await createTestRelay({ name: "other" });
    const response = await other.owner("GET", "/metrics");
    expect(response.status).toBe(200);
    const figures = parseExposition(await response.text());
    expect(samplesOf(figures, "oar_relay_info")).toEqual([
      { name: "oar_relay_info", labels: { name: "other", version: expect.any(String) }, value: 1 },
    ]);
    expect(samplesOf(figures, "oar_relay_tool_calls_total")).toEqual([]);
    expect(samplesOf(figures, "oar_relay_turns_total")).toEqual([]);
    // Requests are counted by the pattern of the route that answered, never by their path.
    expect((await other.owner("GET", "/v1/owner/sessions/ses_unknown")).status).toBe(404);
    expect((await other.owner("GET", "/no/such/route")).status).toBe(404);
    const routes = parseExposition(await (await other.owner("GET", "/metrics")).text());
    const requests = samplesOf(routes, "oar_relay_http_requests_total").map((s) => s.labels);
    expect(requests).toContainEqual({ method: "GET", route: "/v1/owner/sessions/:id", status: "404" });
    expect(requests).toContainEqual({ method: "GET", route: "unmatched", status: "404" });
    expect(requests).toContainEqual({ method: "GET", route: "/metrics", status: "200" });
    expect(requests.some((labels) => labels.route?.includes("ses_unknown"))).toBe(false);
    const ours = await scrape(t.served);
    expect(samplesOf(ours, "oar_relay_info")[0]?.labels.name).toBe("desk");
    expect(sampleValue(ours, "oar_relay_tool_calls_total", { action: "list_sessions", outcome: "ok" })).toBe(
      TOOL_CALLS,
    );
  });
});
