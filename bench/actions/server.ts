// The relay under test, in its own process, with bare routes beside it: the same store queries
// that list_sessions and read_session run, the same rows by one hand-written SQL query, and the
// same writes a send + wait of a `script` turn leaves, without parsing, auth, rules or envelopes.
// On PGlite in a scratch folder, or on the Postgres database named as the first argument.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createRelay, loadConfig } from "@oar/relay";
import { Hono } from "hono";

const SESSIONS = 100;
const MESSAGES_PER_READ = 20;
/** Sessions each send path turns through, one request at a time each (8 in flight). */
const SEND_TARGETS = 8;

const databaseUrl = process.argv[2];
const dataDir = await mkdtemp(join(tmpdir(), "oar-bench-"));
let statements = 0;
const relay = await createRelay(
  loadConfig({
    RELAY_NAME: "bench",
    RELAY_DATA_DIR: dataDir,
    RELAY_OWNER_TOKEN: "bench-owner-token-0000",
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
  }),
  {
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    // The agent prompts sessions it did not start: no card waits for the owner here.
    approvalCards: false,
    onStatement: () => {
      statements++;
    },
  },
);
const owner = { authorization: "Bearer bench-owner-token-0000", "content-type": "application/json" };

async function ownerPost(path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await relay.app.request(path, {
    method: "POST",
    headers: owner,
    body: JSON.stringify(body),
  });
  if (!response.ok) {
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  }
  return (await response.json()) as Record<string, unknown>;
}

// One caller, and a target with a real conversation in it so read_session reads messages.
const caller = await ownerPost("/v1/owner/sessions", { provider: "script", title: "bench caller" });
const target = await ownerPost("/v1/owner/sessions", { provider: "script", title: "bench target" });
for (let i = 0; i < 10; i++) {
  await ownerPost(`/v1/owner/sessions/${target.id}/messages`, { text: `!reply answer ${i}` });
}
const toolSends: string[] = [];
const bareSends: string[] = [];
for (let i = 0; i < SEND_TARGETS; i++) {
  toolSends.push(
    (await ownerPost("/v1/owner/sessions", { provider: "script", title: `send ${i}` })).id as string,
  );
  bareSends.push(
    (await ownerPost("/v1/owner/sessions", { provider: "script", title: `bare ${i}` })).id as string,
  );
}
for (let i = 2 + 2 * SEND_TARGETS; i < SESSIONS; i++) {
  await ownerPost("/v1/owner/sessions", { provider: "script", title: `bench session ${i}` });
}
const { token } = (await ownerPost(`/v1/owner/sessions/${caller.id}/token`, {})) as { token: string };

const { stores, db } = relay.services.storage;
const { sessions } = stores;
const bare = new Hono();
bare.get("/list-sessions", async (c) =>
  c.json({ ok: true, sessions: await sessions.listSessions({ scope: "active" }) }),
);
// The bare list's rows by one query written by hand, sent as they come: what the store adds.
// The bare list's rows by one query written by hand, sent as the driver gives them: what the
// store's query building and row mapping add. Through the driver itself (the bench may not import
// drizzle): postgres.js `unsafe`, PGlite `query`.
const driver = (db as unknown as { $client: DriverClient }).$client;
interface DriverClient {
  unsafe?(text: string): Promise<unknown[]>;
  query?(text: string): Promise<{ rows: unknown[] }>;
}
const LIST_SQL = `
  select s.*, (select count(*)::int from messages m where m.session_id = s.id) as message_count
  from sessions s where s.deleted_at is null and s.archived_at is null
  order by s.last_activity_at desc, s.created_at desc, s.id`;
bare.get("/sql-list-sessions", async (c) => {
  const rows = driver.unsafe ? await driver.unsafe(LIST_SQL) : (await driver.query?.(LIST_SQL))?.rows;
  return c.json({ ok: true, sessions: rows });
});
bare.get("/read-session/:id", async (c) => {
  const id = c.req.param("id");
  const [session, messages] = await Promise.all([
    sessions.getSession(id),
    sessions.listMessages(id, { last: MESSAGES_PER_READ }),
  ]);
  return c.json({ ok: true, session, messages });
});

// The rows a send + wait of a script turn leaves, through the same stores, in the same three
// transactions: the prompt and its queued turn; the claim, the running state and turn_started;
// the reply with the turn's end, the idle state and turn_end.
let sent = 0;
bare.post("/send/:index", async (c) => {
  const sessionId = bareSends[Number(c.req.param("index"))] as string;
  const n = ++sent;
  const at = Date.now();
  const iso = new Date(at).toISOString();
  await stores.transaction(async (s) => {
    await s.sessions.appendMessage({
      id: `msg_bare_${n}`,
      sessionId,
      role: "user",
      text: "!reply ok",
      createdAt: at,
    });
    await s.sessions.enqueueTurn({
      id: `trn_bare_${n}`,
      sessionId,
      promptMessageId: `msg_bare_${n}`,
      origin: { kind: "agent" },
      queuedAt: at,
    });
  });
  await stores.transaction(async (s) => {
    const turn = await s.sessions.claimNextTurn({ sessionId, now: at });
    if (turn === null) {
      throw new Error(`bare send: no turn to claim in ${sessionId}`);
    }
    await s.sessions.updateSession(sessionId, { state: "running_turn" });
    await s.events.appendEvent({
      id: `evt_bare_start_${n}`,
      sessionId,
      event: {
        kind: "turn_started",
        id: `evt_bare_start_${n}`,
        at: iso,
        session: sessionId,
        title: "bare",
        turn_id: turn.id,
      },
      at,
    });
  });
  await stores.transaction(async (s) => {
    await s.sessions.finishTurn({
      turnId: `trn_bare_${n}`,
      status: "done",
      reply: "ok",
      endedAt: at,
      replyMessageId: `msg_bare_reply_${n}`,
    });
    await s.sessions.updateSession(sessionId, { state: "idle" });
    await s.events.appendEvent({
      id: `evt_bare_end_${n}`,
      sessionId,
      event: {
        kind: "turn_end",
        id: `evt_bare_end_${n}`,
        at: iso,
        session: sessionId,
        title: "bare",
        status: "done",
        turn_id: `trn_bare_${n}`,
        text: "ok",
      },
      at,
    });
  });
  return c.json({ ok: true, status: "done", reply: "ok" });
});
// Every statement the relay sent its database so far: the runner takes differences.
bare.get("/statements", (c) => c.json({ statements }));

const outer = new Hono();
outer.route("/bare", bare);
outer.route("/", relay.app);
const server = serve({ fetch: outer.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  console.log(
    JSON.stringify({
      ready: true,
      port: info.port,
      token,
      caller: caller.id,
      target: target.id,
      sends: toolSends,
      dataDir,
    }),
  );
});

process.on("SIGTERM", () => {
  server.close();
  relay.close().then(() => process.exit(0));
});
