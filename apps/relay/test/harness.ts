import { silentLogger } from "@oar/core";
import { onTestFinished } from "vitest";
import { createRelay, type Relay, type RelayOverrides } from "../src/compose";
import { loadConfig } from "../src/config";

export const OWNER_TOKEN = "owner-token-for-tests-0123456789";

export interface TestRelay {
  /** The relay's name (RELAY_NAME): "desk" unless the test named it. */
  readonly name: string;
  readonly relay: Relay;
  /** A request to the relay's app, as the owner (JSON body, bearer = owner token). */
  owner(method: string, path: string, body?: unknown): Promise<Response>;
  /** The owner API's JSON answer, failing the test unless the status is 200. */
  ownerJson<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T>;
  /** A new agent token for the session (POST /v1/owner/sessions/:id/token). */
  agentToken(sessionId: string): Promise<string>;
  /** POST /v1/tool as the session holding `token`. */
  tool(token: string, body: unknown): Promise<Response>;
}

function jsonInit(method: string, token: string | undefined, body?: unknown): RequestInit {
  const headers: Record<string, string> = {};
  if (token !== undefined) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  return { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
}

/** A relay on in-memory PGlite (or the given data directory), closed when the test ends. */
export async function createTestRelay(
  options: {
    /** RELAY_NAME; default "desk". */
    readonly name?: string;
    readonly dataDir?: string;
    /** DATABASE_URL: Postgres instead of PGlite. */
    readonly databaseUrl?: string;
    readonly overrides?: RelayOverrides;
    readonly keepOpen?: boolean;
  } = {},
): Promise<TestRelay> {
  const config = loadConfig({
    RELAY_NAME: options.name ?? "desk",
    RELAY_OWNER_TOKEN: OWNER_TOKEN,
    RELAY_DATA_DIR: options.dataDir ?? "memory://",
    ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
  });
  const relay = await createRelay(config, { logger: silentLogger, ...options.overrides });
  if (!options.keepOpen) {
    onTestFinished(() => relay.close());
  }
  const owner = async (method: string, path: string, body?: unknown) =>
    relay.app.request(path, jsonInit(method, OWNER_TOKEN, body));
  const ownerJson = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await owner(method, path, body);
    const text = await response.text();
    if (response.status !== 200) {
      throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    }
    return JSON.parse(text) as T;
  };
  return {
    name: config.name,
    relay,
    owner,
    ownerJson,
    async agentToken(sessionId) {
      return (await ownerJson<{ token: string }>("POST", `/v1/owner/sessions/${sessionId}/token`)).token;
    },
    tool: async (token, body) => relay.app.request("/v1/tool", jsonInit("POST", token, body)),
  };
}

/** Polls until `check` returns a value (real time: these tests run real turns). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`not reached within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
