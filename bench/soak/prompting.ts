import { setTimeout as sleep } from "node:timers/promises";
import { type Agent, busySessions, pause, type Soak, TERMINAL, text } from "./cast";
import type { PromptRecord } from "./journal";

/** How long a client follows one prompt (its send and its waits) before it gives up on it. */
const FOLLOW_MS = 180_000;
const WAIT_SECONDS = 20;
/** Sessions an agent creates at most (R-LOCAL-01 limits those at work at once to 4). */
const MOST_TARGETS = 4;
const MOST_OWNER_SESSIONS = 30;

/**
 * `send` or `create_session` with a wait, then `wait` until the turn ends: what an agent does
 * to get a reply. A failed wait (its process died, its link froze) is tried again through the
 * balancer; a failed send is not (its prompt may or may not be in, and is recorded as tried).
 * Returns the last body it was told, null when the send was not acknowledged.
 */
export async function promptAndFollow(
  soak: Soak,
  token: string,
  call: { readonly action: "send" | "create_session" } & Record<string, unknown>,
  record: PromptRecord,
): Promise<Record<string, unknown> | null> {
  const start = Date.now();
  const sent = await soak.calls.tool(token, { ...call, relay: "this", wait_seconds: WAIT_SECONDS });
  let calls = 1;
  if (!sent.ok || sent.body === null) {
    record.failure = `${sent.code ?? sent.status}: ${sent.error ?? ""}`.slice(0, 200);
    return null;
  }
  let body = sent.body;
  const session = text(body, "session");
  const messageId = text(body, "message_id");
  record.session = session;
  record.messageId = messageId;
  record.told = text(body, "status");
  while (!TERMINAL.has(record.told ?? "") && Date.now() - start < FOLLOW_MS && session && messageId) {
    const waited = await soak.calls.tool(token, {
      action: "wait",
      relay: "this",
      session,
      message_id: messageId,
      wait_seconds: WAIT_SECONDS,
    });
    calls += 1;
    if (waited.ok && waited.body !== null) {
      body = waited.body;
      record.told = text(body, "status");
    } else {
      await sleep(500);
    }
  }
  const status = TERMINAL.has(record.told ?? "") ? (record.told ?? "") : "gave up";
  soak.journal.sendWaits.push({
    marker: record.marker,
    start,
    end: Date.now(),
    status,
    calls,
    sleepMs: soak.scripts.sleepOf(record.marker),
  });
  return body;
}

/** The owner at the console: new `script` sessions with a first prompt, and prompts to them; no waiting. */
export async function ownerLane(soak: Soak): Promise<void> {
  const { calls, journal, scripts, random } = soak;
  while (Date.now() < soak.loadEnd) {
    const creating =
      soak.ownerSessions.length < MOST_OWNER_SESSIONS && (soak.ownerSessions.length < 4 || random.bool(0.1));
    const marker = scripts.marker("o");
    if (creating) {
      const record = journal.prompt({ marker, by: "owner", what: "create", at: Date.now(), session: null });
      const created = await calls.owner("POST", "/v1/owner/sessions", {
        provider: "script",
        title: `owner ${marker}`,
        text: scripts.marked(marker),
      });
      const id = text(created.body, "id");
      if (created.ok && id !== null) {
        journal.sessions.set(id, { by: "owner", at: Date.now() });
        soak.ownerSessions.push(id);
        record.session = id;
        const messages = (created.body?.messages ?? []) as { id: string; role: string }[];
        record.messageId = messages.find((message) => message.role === "user")?.id ?? null;
      } else {
        record.failure = `${created.code ?? created.status}: ${created.error ?? ""}`.slice(0, 200);
      }
    } else {
      const session = random.pick(soak.ownerSessions);
      const record = journal.prompt({ marker, by: "owner", what: "prompt", at: Date.now(), session });
      const posted = await calls.owner("POST", `/v1/owner/sessions/${session}/messages`, {
        text: scripts.marked(marker),
      });
      const message = posted.body?.message as { id?: string } | undefined;
      if (posted.ok && typeof message?.id === "string") {
        record.messageId = message.id;
      } else {
        record.failure = `${posted.code ?? posted.status}: ${posted.error ?? ""}`.slice(0, 200);
      }
    }
    await pause(soak, random.int(500, 1_500));
  }
}

/** The agent creates a session to prompt (create_session); its id, or why it failed. */
export async function createTarget(
  soak: Soak,
  agent: Agent,
): Promise<{ readonly session: string | null; readonly failure: string | null }> {
  const marker = soak.scripts.marker("c");
  const record = soak.journal.prompt({ marker, by: "agent", what: "create", at: Date.now(), session: null });
  const body = await promptAndFollow(
    soak,
    agent.token,
    {
      action: "create_session",
      provider: "script",
      title: `agent ${marker}`,
      text: soak.scripts.marked(marker),
    },
    record,
  );
  if (record.session !== null && body !== null) {
    soak.journal.sessions.set(record.session, { by: "agent", at: Date.now() });
    agent.targets.push(record.session);
    return { session: record.session, failure: null };
  }
  return { session: null, failure: record.failure ?? "no answer" };
}

/**
 * An agent at work: mostly `send` + `wait` to the sessions it created, now and then a new one
 * (create_session), or a read of any busy session.
 */
export async function agentLane(soak: Soak, agent: Agent): Promise<void> {
  const { random, scripts, journal } = soak;
  while (Date.now() < soak.loadEnd) {
    const roll = random.next();
    if (agent.targets.length < 2 || (roll < 0.06 && agent.targets.length < MOST_TARGETS)) {
      await createTarget(soak, agent);
    } else if (roll < 0.15) {
      await soak.calls.tool(agent.token, {
        action: "read_session",
        relay: "this",
        session: random.pick(busySessions(soak)),
        last: 5,
      });
    } else {
      const session = random.pick(agent.targets);
      const marker = scripts.marker("a");
      const record = journal.prompt({ marker, by: "agent", what: "prompt", at: Date.now(), session });
      await promptAndFollow(
        soak,
        agent.token,
        { action: "send", session, text: scripts.marked(marker) },
        record,
      );
    }
    await pause(soak, random.int(200, 800));
  }
}
