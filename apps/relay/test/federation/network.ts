import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { OwnerCard, OwnerSessionDetail } from "@oar/engine";
import type { OwnerPeer as OwnerPeerView, PermissionLevel } from "@oar/schema";
import { onTestFinished } from "vitest";
import type { RelayOverrides } from "../../src/compose";
import { createTestRelay, eventually, type TestRelay } from "../harness";

// Two or more relays in one process (STYLE §12): each relay's fetch to a paired relay goes to the
// app of the relay whose host the URL names, https://<name>.test by default.

export type ToolResult = Record<string, unknown>;

/** One exchange a relay sent another through its peerFetch. */
export interface PeerExchange {
  readonly from: string;
  readonly host: string;
  readonly method: string;
  readonly path: string;
  /** The body of POST /v1/peer/tool, parsed. */
  readonly body?: { readonly call: Record<string, unknown>; readonly origin: Record<string, unknown> };
}

export interface Network {
  /**
   * A relay on this network, reachable at https://<name>.test (or at `host`); a relay of the
   * same name created again (a restart) takes the place of the first.
   */
  relay(
    name: string,
    options?: {
      readonly host?: string;
      readonly dataDir?: string;
      readonly keepOpen?: boolean;
      readonly overrides?: RelayOverrides;
    },
  ): Promise<TestRelay>;
  /** Hosts that do not answer: their fetch throws, as a refused connection does. */
  readonly down: Set<string>;
  /** Every peer exchange, in order. */
  readonly exchanges: PeerExchange[];
  /** The POST /v1/peer/tool calls that reached `host` (preflights included). */
  toolCallsTo(host: string): PeerExchange[];
}

/** The URL string a fetch was given, whatever its form. */
function urlOf(input: Parameters<typeof globalThis.fetch>[0]): URL {
  return new URL(input instanceof Request ? input.url : String(input));
}

export function createNetwork(): Network {
  const byHost = new Map<string, TestRelay>();
  const down = new Set<string>();
  const exchanges: PeerExchange[] = [];

  const fetchFrom =
    (from: string): typeof globalThis.fetch =>
    async (input, init) => {
      const url = urlOf(input);
      const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
      let body: PeerExchange["body"];
      if (method === "POST" && url.pathname.endsWith("/v1/peer/tool")) {
        const text =
          typeof init?.body === "string"
            ? init.body
            : input instanceof Request
              ? await input.clone().text()
              : undefined;
        body = text === undefined ? undefined : JSON.parse(text);
      }
      exchanges.push({ from, host: url.host, method, path: url.pathname, ...(body ? { body } : {}) });
      const target = byHost.get(url.host);
      if (!target || down.has(url.host)) {
        throw new TypeError("fetch failed", { cause: new Error(`connect ECONNREFUSED ${url.host}`) });
      }
      return target.relay.app.request(input, init);
    };

  return {
    async relay(name, options = {}) {
      const host = options.host ?? `${name}.test`;
      const relay = await createTestRelay({
        name,
        ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
        ...(options.keepOpen === undefined ? {} : { keepOpen: options.keepOpen }),
        overrides: { peerFetch: fetchFrom(name), ...options.overrides },
      });
      byHost.set(host, relay);
      return relay;
    },
    down,
    exchanges,
    toolCallsTo: (host) =>
      exchanges.filter((exchange) => exchange.host === host && exchange.path.endsWith("/v1/peer/tool")),
  };
}

/** B's owner issues an invite (POST /v1/owner/peers/invites). */
export async function invite(to: TestRelay): Promise<string> {
  return (await to.ownerJson<{ token: string }>("POST", "/v1/owner/peers/invites")).token;
}

/**
 * `from`'s owner pairs with `to` (DESIGN §4): `to` issues an invite, `from` adds it under `to`'s
 * name (or `name`) at `url` (default https://<to's name>.test) and `level` (default: none given).
 */
export async function pair(
  from: TestRelay,
  to: TestRelay,
  options: { readonly name?: string; readonly url?: string; readonly level?: PermissionLevel } = {},
): Promise<OwnerPeerView> {
  const token = await invite(to);
  return from.ownerJson<OwnerPeerView>("POST", "/v1/owner/peers", {
    name: options.name ?? to.name,
    url: options.url ?? `https://${to.name}.test`,
    token,
    ...(options.level === undefined ? {} : { level: options.level }),
  });
}

/** The JSON result of POST /v1/tool, keep-alive spaces dropped. */
export async function parse(response: Response): Promise<ToolResult> {
  return JSON.parse((await response.text()).trim()) as ToolResult;
}

/** POST /v1/tool as the session holding `token`, parsed. */
export async function call(t: TestRelay, token: string, body: unknown): Promise<ToolResult> {
  return parse(await t.tool(token, body));
}

/** The owner writes a message in a conversation (a turn starts; the relays it names unlock, R-LOCK-01(a)). */
export async function ownerWrites(t: TestRelay, sessionId: string, text: string): Promise<void> {
  await t.ownerJson("POST", `/v1/owner/sessions/${sessionId}/messages`, { text });
}

/** An external session (always in a turn, DESIGN GAP-04) and its agent token. */
export async function externalCaller(
  t: TestRelay,
  options: { readonly title?: string; readonly mentions?: string } = {},
): Promise<{ readonly id: string; readonly token: string }> {
  const caller = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
    provider: "external",
    ...(options.title === undefined ? {} : { title: options.title }),
  });
  if (options.mentions !== undefined) {
    await ownerWrites(t, caller.id, options.mentions);
  }
  return { id: caller.id, token: await t.agentToken(caller.id) };
}

/** A script session the owner started, with no prompt yet (or `text` as its first message). */
export async function ownerSession(t: TestRelay, title: string, text?: string): Promise<string> {
  const session = await t.ownerJson<OwnerSessionDetail>("POST", "/v1/owner/sessions", {
    provider: "script",
    title,
    ...(text === undefined ? {} : { text }),
  });
  return session.id;
}

export function session(t: TestRelay, id: string): Promise<OwnerSessionDetail> {
  return t.ownerJson<OwnerSessionDetail>("GET", `/v1/owner/sessions/${id}`);
}

/** The session once it has `turns` ended turns (default: at least one) and is idle again. */
export function settled(t: TestRelay, id: string, turns = 1): Promise<OwnerSessionDetail> {
  return eventually(async () => {
    const detail = await session(t, id);
    const ended = detail.turns.filter((turn) => turn.status !== "queued" && turn.status !== "running");
    return ended.length >= turns && ended.length === detail.turns.length && detail.state === "idle"
      ? detail
      : undefined;
  }, 20_000);
}

/** The JSON result lines a script reply carries, one per `!tool` (DESIGN §5). */
export function toolResults(reply: string | undefined): ToolResult[] {
  return (reply ?? "")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as ToolResult);
}

/** A `!tool` directive line (DESIGN §5). */
export function tool(input: object): string {
  return `!tool ${JSON.stringify(input)}`;
}

export async function pendingCards(t: TestRelay): Promise<OwnerCard[]> {
  return (await t.ownerJson<{ cards: OwnerCard[] }>("GET", "/v1/owner/cards?status=pending")).cards;
}

/** The first pending card, once one shows. */
export function nextCard(t: TestRelay): Promise<OwnerCard> {
  return eventually(async () => (await pendingCards(t))[0]);
}

export async function answerCard(t: TestRelay, card: OwnerCard, choice: "allow" | "deny"): Promise<void> {
  await t.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice });
}

/** A request with a bearer token (or none) to a relay's app. */
export function bearer(
  t: TestRelay,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token !== undefined) {
    headers.Authorization = `Bearer ${token}`;
  }
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
  }
  return Promise.resolve(
    t.relay.app.request(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** GET /v1/owner/peers: the relay's pairings as its owner sees them. */
export async function listPeers(t: TestRelay): Promise<OwnerPeerView[]> {
  return (await t.ownerJson<{ peers: OwnerPeerView[] }>("GET", "/v1/owner/peers")).peers;
}

/** Serves `fetch` on 127.0.0.1 on a free port until the test ends: real sockets; its base URL. */
export async function serveOnLoopback(
  fetch: (request: Request) => Response | Promise<Response>,
): Promise<string> {
  const server = serve({ fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections of the global fetch would hold close() open.
        if ("closeAllConnections" in server) {
          server.closeAllConnections();
        }
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
