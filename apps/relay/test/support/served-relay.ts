import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { silentLogger } from "@oar/core";
import { createRelay, type Relay, type RelayOverrides } from "../../src/compose";
import { loadConfig } from "../../src/config";
import { eventually, OWNER_TOKEN } from "../harness";

/** An HTTP answer: its status and its JSON body. */
export interface Answer<T> {
  readonly status: number;
  readonly body: T;
}

export interface ToolResult {
  readonly ok: boolean;
  readonly code?: string;
  readonly error?: string;
  readonly summary?: string;
  readonly [field: string]: unknown;
}

/**
 * A relay served on 127.0.0.1 over a real socket, as `oar-relay start` serves it: the children it
 * starts (command CLIs, tasks) reach it at OAR_RELAY_URL. Every call goes over HTTP.
 */
export interface ServedRelay {
  readonly relay: Relay;
  readonly base: string;
  /** An owner API call; its status and JSON. */
  owner<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<Answer<T>>;
  /** An owner API call that must answer 200; its JSON. */
  ownerJson<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  /** A new agent token of the session. */
  agentToken(sessionId: string): Promise<string>;
  /** POST /v1/tool as the session holding `token`; HTTP 200 is required (DESIGN §4). */
  tool(token: string, call: Record<string, unknown>): Promise<ToolResult>;
  /** Closes the server, then the relay. Idempotent. */
  close(): Promise<void>;
}

async function call<T>(
  base: string,
  token: string,
  request: { readonly method: string; readonly path: string; readonly body?: unknown },
): Promise<Answer<T>> {
  const response = await fetch(`${base}${request.path}`, {
    method: request.method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text.trim() === "" ? null : JSON.parse(text)) as T };
}

/**
 * Starts a relay (PGlite in `dataDir`, or Postgres at `databaseUrl`) whose sessions may use
 * `allowedRoots`, serves it on a free port and tells it that port (`relay.listening`).
 * The caller closes it (`close`), in its afterAll or onTestFinished.
 */
export async function serveRelay(options: {
  readonly dataDir: string;
  readonly allowedRoots: readonly string[];
  readonly databaseUrl?: string;
  readonly name?: string;
  /** More of the relay's environment (RELAY_COPILOT_BIN…). */
  readonly env?: Readonly<Record<string, string>>;
  readonly overrides?: RelayOverrides;
}): Promise<ServedRelay> {
  const config = loadConfig({
    RELAY_NAME: options.name ?? "desk",
    RELAY_OWNER_TOKEN: OWNER_TOKEN,
    RELAY_DATA_DIR: options.dataDir,
    RELAY_ALLOWED_ROOTS: options.allowedRoots.join(":"),
    ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
    ...options.env,
  });
  const relay = await createRelay(config, { logger: silentLogger, ...options.overrides });
  const server = serve({ fetch: relay.app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await relay.listening(port);
  const base = `http://127.0.0.1:${port}`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Open streams and the global fetch's keep-alive connections would hold close() open.
      if ("closeAllConnections" in server) {
        server.closeAllConnections();
      }
    });
  const owner = <T>(method: string, path: string, body?: unknown) =>
    call<T>(base, OWNER_TOKEN, { method, path, ...(body === undefined ? {} : { body }) });
  const ownerJson = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await owner<T>(method, path, body);
    if (answer.status !== 200) {
      throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return answer.body;
  };
  let closing: Promise<void> | undefined;
  return {
    relay,
    base,
    owner,
    ownerJson,
    async agentToken(sessionId) {
      return (await ownerJson<{ token: string }>("POST", `/v1/owner/sessions/${sessionId}/token`)).token;
    },
    async tool(token, body) {
      const answer = await call<ToolResult>(base, token, { method: "POST", path: "/v1/tool", body });
      if (answer.status !== 200) {
        throw new Error(`POST /v1/tool answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      return answer.body;
    },
    close() {
      closing ??= closeServer().finally(() => relay.close());
      return closing;
    },
  };
}

export interface TurnView {
  readonly id: string;
  readonly status: string;
  readonly reply: string | null;
  readonly error: string | null;
}

export interface TaskView {
  readonly taskId: string;
  readonly description: string;
  readonly type: string;
  readonly status: string;
  readonly exitCode: number | null;
  readonly output: boolean;
  readonly health?: { readonly minutesSinceOutput: number; readonly quiet: boolean };
}

export interface SessionView {
  readonly id: string;
  readonly provider: string;
  readonly model: string;
  readonly cwd: string | null;
  readonly state: string;
  readonly turns: readonly TurnView[];
  readonly tasks: readonly TaskView[];
  readonly messages: readonly { readonly role: string; readonly text: string }[];
}

const ENDED_TURN = ["done", "error", "stopped"];

/**
 * The session once its turns have all ended (polled over the owner API). It is read once more
 * after the end was seen: one read lists the messages before the turns, so it may show a turn
 * that ended between the two without its reply message.
 */
export async function turnsEnded(
  served: ServedRelay,
  sessionId: string,
  timeoutMs = 20_000,
): Promise<SessionView> {
  const path = `/v1/owner/sessions/${sessionId}`;
  await eventually(async () => {
    const session = await served.ownerJson<SessionView>("GET", path);
    return session.turns.length > 0 && session.turns.every((turn) => ENDED_TURN.includes(turn.status))
      ? true
      : undefined;
  }, timeoutMs);
  return served.ownerJson<SessionView>("GET", path);
}

/** A conversation driven from outside, as the calling agent of a test: its id and an agent token. */
export async function externalCaller(served: ServedRelay): Promise<{ id: string; token: string }> {
  const { id } = await served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
    provider: "external",
  });
  return { id, token: await served.agentToken(id) };
}

/** An owner API or /v1/tool refusal's body. */
export interface ErrorBody {
  readonly ok: false;
  readonly code: string;
  readonly error: string;
}

/** GET /v1/owner/settings, as the provider tests read it. */
export interface OwnerSettingsView {
  readonly providers: Record<string, Record<string, unknown>>;
  readonly quietAfterMinutes: number;
}

/** A line of a session's tool-call log (the owner's session view). */
export interface ToolCallView {
  readonly action: string;
  readonly relay: string;
  readonly session: string | null;
  readonly ok: boolean;
  readonly code: string | null;
  readonly summary: string;
}

/** GET /v1/owner/sessions/:id with what the provider tests read of it. */
export interface SessionDetail extends SessionView {
  readonly toolCalls: readonly ToolCallView[];
  readonly inFlight: { readonly turnId: string; readonly text: string } | null;
  readonly pendingQuestions: readonly { readonly id: string; readonly text: string }[];
}
