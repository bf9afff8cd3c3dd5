// The relay under test, in its own process, with two bare routes beside it: the same store
// queries that list_sessions and read_session run, without parsing, auth, rules or envelopes.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "@hono/node-server";
import { createRelay, loadConfig } from "@oar/relay";
import { Hono } from "hono";

const SESSIONS = 100;
const MESSAGES_PER_READ = 20;

const dataDir = await mkdtemp(join(tmpdir(), "oar-bench-"));
const relay = await createRelay(
  loadConfig({ RELAY_NAME: "bench", RELAY_DATA_DIR: dataDir, RELAY_OWNER_TOKEN: "bench-owner-token-0000" }),
  { logger: { debug() {}, info() {}, warn() {}, error() {} } },
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
for (let i = 2; i < SESSIONS; i++) {
  await ownerPost("/v1/owner/sessions", { provider: "script", title: `bench session ${i}` });
}
const { token } = (await ownerPost(`/v1/owner/sessions/${caller.id}/token`, {})) as { token: string };

const { sessions } = relay.services.storage.stores;
const bare = new Hono();
bare.get("/list-sessions", async (c) =>
  c.json({ ok: true, sessions: await sessions.listSessions({ scope: "active" }) }),
);
bare.get("/read-session/:id", async (c) => {
  const id = c.req.param("id");
  const [session, messages] = await Promise.all([
    sessions.getSession(id),
    sessions.listMessages(id, { last: MESSAGES_PER_READ }),
  ]);
  return c.json({ ok: true, session, messages });
});

const outer = new Hono();
outer.route("/bare", bare);
outer.route("/", relay.app);
const server = serve({ fetch: outer.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  console.log(
    JSON.stringify({ ready: true, port: info.port, token, caller: caller.id, target: target.id, dataDir }),
  );
});

process.on("SIGTERM", () => {
  server.close();
  relay.close().then(() => process.exit(0));
});
