import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  chatError,
  chatHang,
  chatText,
  chatToolCall,
  type FakeOpenAiChat,
  type RecordedRequest,
  startFakeOpenAiChat,
} from "@oar/providers/testing";
import type { ProviderInfo } from "@oar/schema";
import { RELAY_TOOL_DESCRIPTION, relayToolInputJsonSchema } from "@oar/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import {
  type ErrorBody,
  externalCaller,
  type OwnerSettingsView,
  type ServedRelay,
  type SessionDetail,
  type SessionView,
  serveRelay,
  turnsEnded,
} from "./support/served-relay";

interface ApprovalCard {
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
  readonly sessionId: string;
  readonly action: string;
}

interface ProviderUsage {
  readonly provider: string;
  readonly status: string;
  readonly consumed?: number;
  readonly allocation?: number;
  readonly remaining?: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly estimated?: readonly string[];
  readonly estimateNote?: string;
}

/** The parts of a Chat Completions request the tests read. */
interface ChatBody {
  readonly model: string;
  readonly messages: readonly {
    readonly role: string;
    readonly content: unknown;
    readonly tool_calls?: readonly {
      readonly function: { readonly name: string; readonly arguments: string };
    }[];
  }[];
  readonly tools?: readonly {
    readonly type: string;
    readonly function: { readonly name: string; readonly description: string; readonly parameters: unknown };
  }[];
}

const GROK_KEY = "xai-relay-http-test-key-0123456789";
const DEEPSEEK_KEY = "sk-relay-http-test-key-9876543210";
const GROK_NOT_CONFIGURED =
  "Grok has no API key on this relay: the owner sets providers.grok.apiKey in the settings.";
const DEEPSEEK_NOT_CONFIGURED =
  "DeepSeek has no API key on this relay: the owner sets providers.deepseek.apiKey in the settings.";
// Prices that make a model call at the fake's stock usage (1,000 prompt and 50 completion tokens)
// cost $1 for the input and $0.50 for the output: halves of a dollar, so sums stay exact.
const GROK_PRICES = { "grok-4.7": { inputPerMTok: 1_000, outputPerMTok: 10_000 } };
const TEST_TIMEOUT_MS = 30_000;
const TURN_TIMEOUT_MS = 15_000;

function chatBodyOf(request: RecordedRequest | undefined): ChatBody {
  if (request === undefined) {
    throw new Error("the fake chat API got no such request");
  }
  return request.body as ChatBody;
}

/** The request's conversation without the system prompt, as `role: content [tool calls]` lines. */
function dialogueOf(request: RecordedRequest | undefined): string[] {
  return chatBodyOf(request)
    .messages.filter((message) => message.role !== "system")
    .map((message) => {
      const calls = (message.tool_calls ?? []).map(
        (call) => ` [${call.function.name} ${call.function.arguments}]`,
      );
      return `${message.role}: ${String(message.content ?? "")}${calls.join("")}`;
    });
}

/**
 * DESIGN §5 `grok` and `deepseek`: API models whose agent loop the relay runs itself, turned on by
 * the owner's settings and driven only through the relay's HTTP surfaces (owner API and /v1/tool),
 * against a fake OpenAI-compatible Chat Completions API on loopback.
 */
function apiModelsFlow(database: string, databaseUrl: () => string | undefined) {
  // The loop, its requests and its errors do not depend on the store: those run on PGlite only, and
  // the Postgres leg keeps what rows carry (settings, the conversation across a restart, usage, the cap).
  const onPGliteOnly = (name: string, test: () => Promise<void>) => {
    if (database === "PGlite") {
      it(name, test);
    }
  };
  let root: string;
  let fake: FakeOpenAiChat;
  let served: ServedRelay;
  let caller: { id: string; token: string };

  const start = () => {
    const url = databaseUrl();
    return serveRelay({
      dataDir: join(root, "data"),
      allowedRoots: [root],
      ...(url === undefined ? {} : { databaseUrl: url }),
    });
  };
  const providersOf = async () =>
    ((await served.tool(caller.token, { action: "relay_info", relay: "this" })).providers ??
      []) as ProviderInfo[];
  const usageOf = async (provider: string) => {
    const result = await served.tool(caller.token, { action: "usage", relay: "this" });
    expect(result.ok).toBe(true);
    return (result.providers as ProviderUsage[]).find((entry) => entry.provider === provider);
  };
  const newSession = async (body: Record<string, unknown>) =>
    (await served.ownerJson<SessionView>("POST", "/v1/owner/sessions", body)).id;
  const post = (id: string, text: string) =>
    served.ownerJson("POST", `/v1/owner/sessions/${id}/messages`, { text });
  const detailOf = (id: string) => served.ownerJson<SessionDetail>("GET", `/v1/owner/sessions/${id}`);
  const ended = (id: string) => turnsEnded(served, id, TURN_TIMEOUT_MS);
  const lastTurn = async (id: string) => (await ended(id)).turns.at(-1);
  const sessionIds = async () =>
    (await served.ownerJson<{ sessions: { id: string }[] }>("GET", "/v1/owner/sessions?scope=all")).sessions
      .map((session) => session.id)
      .sort();
  const pendingCards = async () =>
    (await served.ownerJson<{ cards: ApprovalCard[] }>("GET", "/v1/owner/cards?status=pending")).cards;
  /** The fake's chat requests from the `from`-th on. */
  const requestsFrom = (from: number) => fake.chatRequests.slice(from);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "oar-api-models-"));
    fake = await startFakeOpenAiChat();
    served = await start();
    caller = await externalCaller(served);
  });
  afterAll(async () => {
    await served?.close();
    await fake?.close();
    if (root !== undefined) {
      rmSync(root, { recursive: true, force: true });
    }
  });

  describe(`Grok and DeepSeek over HTTP (${database})`, { timeout: TEST_TIMEOUT_MS }, () => {
    it("without a key: relay_info and the owner's providers list grok and deepseek as not configured; a session on them is refused PROVIDER_UNAVAILABLE by the owner API and by create_session, and nothing is created", async () => {
      const listed = await providersOf();
      const grok = listed.find((provider) => provider.id === "grok");
      const deepseek = listed.find((provider) => provider.id === "deepseek");
      expect(grok).toEqual({
        id: "grok",
        name: "Grok (xAI API)",
        defaultModel: "grok-4.7",
        models: ["grok-4.7", "grok-4.6", "grok-4.5"],
        efforts: [],
        notConfigured: GROK_NOT_CONFIGURED,
      });
      expect(deepseek).toEqual({
        id: "deepseek",
        name: "DeepSeek (API)",
        defaultModel: "deepseek-chat",
        models: ["deepseek-chat", "deepseek-reasoner"],
        efforts: [],
        notConfigured: DEEPSEEK_NOT_CONFIGURED,
      });
      const { providers } = await served.ownerJson<{ providers: ProviderInfo[] }>(
        "GET",
        "/v1/owner/providers",
      );
      expect(providers.find((provider) => provider.id === "grok")).toEqual(grok);
      expect(providers.find((provider) => provider.id === "deepseek")).toEqual(deepseek);
      expect(await usageOf("grok")).toEqual({ provider: "grok", status: "not_configured" });

      const before = await sessionIds();
      const byOwner = await served.owner<ErrorBody>("POST", "/v1/owner/sessions", {
        provider: "grok",
        text: "Hello Grok.",
      });
      expect(byOwner.status).toBe(422);
      expect(byOwner.body).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
        error: `${GROK_NOT_CONFIGURED} Nothing was created.`,
      });
      const byAgent = await served.tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "deepseek",
        text: "Hello DeepSeek.",
      });
      expect(byAgent).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
        remoteCode: "PROVIDER_NOT_CONFIGURED",
        error: `${DEEPSEEK_NOT_CONFIGURED} Nothing was created.`,
      });
      expect(await sessionIds()).toEqual(before);
      // Refused before any card: the owner is asked nothing about a session that cannot run.
      expect(await pendingCards()).toEqual([]);
      expect(fake.chatRequests).toHaveLength(0);
    });

    it("bad grok/deepseek entries are refused 400 naming the field, without the key, and change nothing; a good one is stored and never shows the key back", async () => {
      const before = await served.ownerJson<OwnerSettingsView>("GET", "/v1/owner/settings");
      const cases: [string, Record<string, unknown>, string][] = [
        ["grok", { apiKey: "", baseUrl: fake.url }, "providers.grok.apiKey: must be the xAI API key"],
        ["grok", { apiKey: GROK_KEY, colour: "red" }, "providers.grok.colour: unknown setting"],
        ["grok", { apiKey: `${GROK_KEY} x` }, "providers.grok.apiKey: must not contain spaces"],
        ["grok", { apiKey: GROK_KEY, baseUrl: "ftp://example.test/v1" }, "providers.grok.baseUrl:"],
        ["grok", { apiKey: GROK_KEY, monthlyCapUsd: 0 }, "providers.grok.monthlyCapUsd:"],
        [
          "deepseek",
          { apiKey: DEEPSEEK_KEY, prices: { "deepseek-chat": { inputPerMTok: -1, outputPerMTok: 1 } } },
          "providers.deepseek.prices.deepseek-chat.inputPerMTok:",
        ],
      ];
      for (const [id, entry, field] of cases) {
        // Another setting and a good entry in the same patch are not applied either.
        const answer = await served.owner<ErrorBody>("PATCH", "/v1/owner/settings", {
          quietAfterMinutes: before.quietAfterMinutes + 7,
          providers: { [id]: entry, ...(id === "grok" ? { deepseek: { apiKey: DEEPSEEK_KEY } } : {}) },
        });
        expect(answer.status, field).toBe(400);
        expect(answer.body, field).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
        expect(answer.body.error, field).toContain(field);
        expect(answer.body.error, field).not.toContain(GROK_KEY);
        expect(answer.body.error, field).not.toContain(DEEPSEEK_KEY);
      }
      expect(await served.ownerJson<OwnerSettingsView>("GET", "/v1/owner/settings")).toEqual(before);
      expect((await providersOf()).find((provider) => provider.id === "grok")?.notConfigured).toBe(
        GROK_NOT_CONFIGURED,
      );

      const patched = await served.ownerJson<OwnerSettingsView>("PATCH", "/v1/owner/settings", {
        providers: {
          grok: { apiKey: GROK_KEY, baseUrl: fake.url, prices: GROK_PRICES },
          deepseek: { apiKey: DEEPSEEK_KEY, baseUrl: fake.url },
        },
      });
      const shown = { baseUrl: fake.url, prices: GROK_PRICES, apiKeySet: true };
      expect(patched.providers.grok).toEqual(shown);
      expect(patched.providers.deepseek).toEqual({ baseUrl: fake.url, apiKeySet: true });
      const read = await served.ownerJson<OwnerSettingsView>("GET", "/v1/owner/settings");
      expect(read.providers.grok).toEqual(shown);
      for (const answer of [patched, read]) {
        expect(JSON.stringify(answer)).not.toContain(GROK_KEY);
        expect(JSON.stringify(answer)).not.toContain(DEEPSEEK_KEY);
      }
      const listed = await providersOf();
      for (const id of ["grok", "deepseek"]) {
        expect(listed.find((provider) => provider.id === id)?.notConfigured).toBeUndefined();
      }
      expect(JSON.stringify(listed)).not.toContain(GROK_KEY);
      expect(await usageOf("deepseek")).toMatchObject({ provider: "deepseek", status: "ok" });
    });

    it("an owner session on grok runs a turn to done with the fake's streamed text; the request carries the key as bearer, the model and relay_tool as the one tool", async () => {
      const from = fake.chatRequests.length;
      fake.enqueue(chatText("Hello from the fake Grok."));
      const id = await newSession({ provider: "grok", title: "Greeter", text: "Say hello." });
      const session = await ended(id);
      expect(session).toMatchObject({ provider: "grok", model: "grok-4.7" });
      expect(session.turns).toEqual([
        expect.objectContaining({ status: "done", reply: "Hello from the fake Grok.", error: null }),
      ]);
      expect(session.messages.map((message) => [message.role, message.text])).toEqual([
        ["user", "Say hello."],
        ["assistant", "Hello from the fake Grok."],
      ]);

      const requests = requestsFrom(from);
      expect(requests).toHaveLength(1);
      const [request] = requests;
      expect(request?.path).toBe("/v1/chat/completions");
      expect(request?.headers.authorization).toBe(`Bearer ${GROK_KEY}`);
      const body = chatBodyOf(request);
      expect(body.model).toBe("grok-4.7");
      expect(dialogueOf(request)).toEqual(["user: Say hello."]);
      expect(body.tools).toHaveLength(1);
      expect(body.tools?.[0]).toMatchObject({
        type: "function",
        function: { name: "relay_tool", description: RELAY_TOOL_DESCRIPTION },
      });
      expect(body.tools?.[0]?.function.parameters).toEqual(
        JSON.parse(JSON.stringify(relayToolInputJsonSchema)),
      );
    });

    it("relay_tool: the model's call runs as the session (its tool-call log), the next request carries the relay's real answer, and the reply is the model's text", async () => {
      const from = fake.chatRequests.length;
      fake.enqueue(
        chatToolCall("relay_tool", { action: "list_sessions", relay: "this" }, { text: "Let me look." }),
        chatText("Listed the sessions."),
      );
      const id = await newSession({ provider: "grok", title: "Lister", text: "List the sessions." });
      const [turn] = (await ended(id)).turns;
      // The reply is what the model said; the 🛰️ line is the streamed transcript's (see the stop test).
      expect(turn).toMatchObject({ status: "done", reply: "Let me look.\nListed the sessions." });
      const detail = await detailOf(id);
      expect(detail.toolCalls).toEqual([
        expect.objectContaining({
          action: "list_sessions",
          relay: "desk",
          session: null,
          ok: true,
          code: null,
        }),
      ]);
      // The caller made no such call: the log is the Grok session's own.
      expect((await detailOf(caller.id)).toolCalls.map((call) => call.action)).not.toContain("list_sessions");

      const requests = requestsFrom(from);
      expect(requests).toHaveLength(2);
      const second = chatBodyOf(requests[1]);
      expect(second.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "tool"]);
      expect(dialogueOf(requests[1]).slice(0, 2)).toEqual([
        "user: List the sessions.",
        'assistant: Let me look. [relay_tool {"action":"list_sessions","relay":"this"}]',
      ]);
      const result = JSON.parse(String(second.messages[3]?.content)) as {
        ok: boolean;
        sessions: { id: string }[];
      };
      expect(result.ok).toBe(true);
      // The relay's real list: this session and the caller, by id.
      expect(result.sessions.map((session) => session.id)).toEqual(expect.arrayContaining([id, caller.id]));
    });

    onPGliteOnly(
      "a stop while the API hangs: the transcript shows the 🛰️ relay_tool line; the owner's kill and the agent's stop end the turn `stopped` within seconds, and the next prompts are done",
      async () => {
        fake.enqueue(
          chatToolCall("relay_tool", { action: "relay_info", relay: "this" }, { text: "Checking." }),
          chatHang("Still thinking"),
        );
        const id = await newSession({ provider: "grok", title: "Stuck", text: "Think for ever." });
        await fake.hanging();
        const transcript = 'Checking.\n🛰️ relay_tool {"action":"relay_info","relay":"this"}\nStill thinking';
        const running = await eventually(async () => {
          const { inFlight } = await detailOf(id);
          return inFlight?.text === transcript ? inFlight : undefined;
        }, TURN_TIMEOUT_MS);
        expect(running.text).toBe(transcript);

        const killedAt = Date.now();
        expect(await served.ownerJson("POST", `/v1/owner/sessions/${id}/kill`)).toEqual({ ok: true });
        const killed = await lastTurn(id);
        expect(Date.now() - killedAt).toBeLessThan(5_000);
        // A stopped turn's reply is what had streamed, the 🛰️ line included.
        expect(killed).toMatchObject({ status: "stopped", error: null, reply: transcript });

        let from = fake.chatRequests.length;
        fake.enqueue(chatText("Back after the kill."));
        await post(id, "Are you there?");
        expect(await lastTurn(id)).toMatchObject({ status: "done", reply: "Back after the kill." });
        // The new worker goes on from the saved conversation: the killed prompt, its call and result,
        // and the partial reply are in it.
        const afterKill = dialogueOf(requestsFrom(from)[0]);
        expect(afterKill[0]).toBe("user: Think for ever.");
        expect(afterKill[1]).toMatch(/^assistant: Checking\. \[relay_tool \{.*"relay_info".*\}\]$/);
        expect(afterKill[2]).toMatch(/^tool: \{"ok":true,/);
        expect(afterKill.slice(3)).toEqual(["assistant: Still thinking", "user: Are you there?"]);

        fake.enqueue(chatHang("Half a th"));
        await post(id, "Think again.");
        await fake.hanging();
        await eventually(
          async () => ((await detailOf(id)).inFlight?.text === "Half a th" ? true : undefined),
          TURN_TIMEOUT_MS,
        );
        const stoppedAt = Date.now();
        expect(await served.tool(caller.token, { action: "stop", relay: "this", session: id })).toMatchObject(
          {
            ok: true,
            stopRequested: true,
          },
        );
        const stopped = await lastTurn(id);
        expect(Date.now() - stoppedAt).toBeLessThan(5_000);
        expect(stopped).toMatchObject({ status: "stopped", reply: "Half a th" });

        from = fake.chatRequests.length;
        fake.enqueue(chatText("Back after the stop."));
        const sent = await served.tool(caller.token, {
          action: "send",
          relay: "this",
          session: id,
          text: "Still there?",
          wait_seconds: 10,
        });
        expect(sent).toMatchObject({ ok: true, status: "done", reply: { text: "Back after the stop." } });
        // The stopped prompt and its partial reply are part of the conversation.
        expect(dialogueOf(requestsFrom(from)[0]).slice(-3)).toEqual([
          "user: Think again.",
          "assistant: Half a th",
          "user: Still there?",
        ]);
        expect((await ended(id)).turns.map((turn) => turn.status)).toEqual([
          "stopped",
          "done",
          "stopped",
          "done",
        ]);
      },
    );

    onPGliteOnly(
      "an API error ends the turn `error` with the provider, the status and the API's message: never a stack, never REMOTE_RELAY_INTERNAL",
      async () => {
        fake.enqueue(chatError(401, "Incorrect API key provided"));
        const id = await newSession({ provider: "grok", title: "Refused", text: "Hello?" });
        const refused = await lastTurn(id);
        expect(refused).toMatchObject({
          status: "error",
          error: "Grok's API refused the request (401): Incorrect API key provided",
        });

        fake.enqueue(chatError(503, "The service is overloaded", "server_error"));
        const sent = await served.tool(caller.token, {
          action: "send",
          relay: "this",
          session: id,
          text: "Again?",
          wait_seconds: 10,
        });
        expect(sent).toMatchObject({ ok: true, status: "error" });
        const failed = await lastTurn(id);
        expect(failed).toMatchObject({
          status: "error",
          error: "Grok's API failed (503): The service is overloaded",
        });
        for (const turn of [refused, failed]) {
          expect(turn?.error).not.toMatch(/REMOTE_RELAY_INTERNAL|\n\s+at |Error:/);
        }
      },
    );

    onPGliteOnly(
      "R-UPD-07/08: update_session's window and thinking on a DeepSeek session the caller started: both changed, 0 means 400,000 tokens, thinking does not take effect; on a Grok session both change nothing",
      async () => {
        fake.enqueue(chatText("DeepSeek here."));
        const creating = served.tool(caller.token, {
          action: "create_session",
          relay: "this",
          provider: "deepseek",
          title: "Deep",
          text: "Hello DeepSeek.",
          wait_seconds: 10,
        });
        // The first session an agent starts in a conversation needs the owner's Allow (GAP-04 a).
        const card = await eventually(async () => (await pendingCards())[0], TURN_TIMEOUT_MS);
        expect(card).toMatchObject({
          kind: "approval",
          reason: "first_create_session",
          sessionId: caller.id,
          action: "create_session",
        });
        await served.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
        const deep = await creating;
        expect(deep).toMatchObject({
          ok: true,
          status: "done",
          provider: "deepseek",
          model: "deepseek-chat",
          reply: { text: "DeepSeek here." },
        });
        expect(chatBodyOf(fake.chatRequests.at(-1)).model).toBe("deepseek-chat");
        expect(fake.chatRequests.at(-1)?.headers.authorization).toBe(`Bearer ${DEEPSEEK_KEY}`);

        const settings = { auto_compact_window: 0, thinking_enabled: "off" };
        const deepUpdate = await served.tool(caller.token, {
          action: "update_session",
          relay: "this",
          session: deep.session,
          ...settings,
        });
        expect(deepUpdate).toMatchObject({
          ok: true,
          changed: ["auto_compact_window", "thinking_enabled"],
          settings: expect.objectContaining({ auto_compact_window: 0, thinking_enabled: false }),
          note:
            'auto_compact_window 0 means 400,000 tokens for provider "deepseek". ' +
            'thinking_enabled does not take effect for provider "deepseek": a DeepSeek session always uses thinking, so it cannot be turned off.',
        });

        // The caller's later sessions need no card: its Allow covers the conversation.
        fake.enqueue(chatText("Grok here."));
        const grok = await served.tool(caller.token, {
          action: "create_session",
          relay: "this",
          provider: "grok",
          title: "Grokker",
          text: "Hello Grok.",
          wait_seconds: 10,
        });
        expect(grok).toMatchObject({ ok: true, status: "done", provider: "grok" });
        const grokUpdate = await served.tool(caller.token, {
          action: "update_session",
          relay: "this",
          session: grok.session,
          ...settings,
        });
        expect(grokUpdate).toMatchObject({
          ok: true,
          changed: ["auto_compact_window", "thinking_enabled"],
          note: 'auto_compact_window, thinking_enabled apply only to Claude sessions (Claude API included): kept in the session\'s settings, they change nothing for provider "grok".',
        });
        expect(await pendingCards()).toEqual([]);
      },
    );

    it("keeps the conversation: the second prompt's request carries the first turn, and after a relay restart the third's carries both", async () => {
      fake.enqueue(chatText("Noted: blue."));
      const id = await newSession({ provider: "grok", title: "Colours", text: "My colour is blue." });
      expect(await lastTurn(id)).toMatchObject({ status: "done", reply: "Noted: blue." });

      let from = fake.chatRequests.length;
      fake.enqueue(chatText("Noted: a cat."));
      await post(id, "My pet is a cat.");
      expect(await lastTurn(id)).toMatchObject({ status: "done", reply: "Noted: a cat." });
      expect(dialogueOf(requestsFrom(from)[0])).toEqual([
        "user: My colour is blue.",
        "assistant: Noted: blue.",
        "user: My pet is a cat.",
      ]);

      await served.close();
      served = await start();
      from = fake.chatRequests.length;
      fake.enqueue(chatText("Blue, and a cat."));
      const sent = await served.tool(caller.token, {
        action: "send",
        relay: "this",
        session: id,
        text: "What do you know about me?",
        wait_seconds: 10,
      });
      expect(sent).toMatchObject({ ok: true, status: "done", reply: { text: "Blue, and a cat." } });
      expect(dialogueOf(requestsFrom(from)[0])).toEqual([
        "user: My colour is blue.",
        "assistant: Noted: blue.",
        "user: My pet is a cat.",
        "assistant: Noted: a cat.",
        "user: What do you know about me?",
      ]);
      expect(requestsFrom(from)[0]?.headers.authorization).toBe(`Bearer ${GROK_KEY}`);
    });

    // Last: it leaves grok over its cap.
    it("usage shows the turn's tokens and its cost at the entry's prices; with the monthly cap just below the spend, send and create_session on grok are refused PROVIDER_UNAVAILABLE with MONTHLY_CAP_REACHED", async () => {
      const before = await usageOf("grok");
      expect(before).toMatchObject({ provider: "grok", status: "ok", unit: "usd" });
      fake.enqueue(
        chatToolCall("relay_tool", { action: "relay_info", relay: "this" }),
        chatText("Spent.", { usage: { promptTokens: 3_000, completionTokens: 100 } }),
      );
      const id = await newSession({ provider: "grok", title: "Spender", text: "Spend a little." });
      expect(await lastTurn(id)).toMatchObject({ status: "done", reply: "Spent." });
      const after = await usageOf("grok");
      // Two model calls: the fake's stock 1,000 + 50 tokens ($1 + $0.50), then 3,000 + 100 ($3 + $1).
      expect((after?.inputTokens ?? 0) - (before?.inputTokens ?? 0)).toBe(4_000);
      expect((after?.outputTokens ?? 0) - (before?.outputTokens ?? 0)).toBe(150);
      expect((after?.consumed ?? 0) - (before?.consumed ?? 0)).toBe(5.5);
      expect(after).toMatchObject({
        status: "ok",
        estimated: ["consumed"],
        estimateNote: expect.stringContaining("providers.grok.prices"),
      });
      const spent = after?.consumed ?? 0;

      const cap = spent - 0.5;
      // Without apiKey the entry keeps the stored key: the refusals below are the cap's, not a missing key's.
      await served.ownerJson("PATCH", "/v1/owner/settings", {
        providers: { grok: { baseUrl: fake.url, prices: GROK_PRICES, monthlyCapUsd: cap } },
      });
      expect(await usageOf("grok")).toMatchObject({
        status: "exhausted",
        consumed: spent,
        allocation: cap,
        remaining: 0,
      });
      const capped = `Grok (xAI API) on relay "desk" reached its monthly cap of ${cap} USD (${spent.toFixed(2)} USD spent this month).`;
      const from = fake.chatRequests.length;
      const sent = await served.tool(caller.token, {
        action: "send",
        relay: "this",
        session: id,
        text: "Spend more.",
      });
      expect(sent).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
        remoteCode: "MONTHLY_CAP_REACHED",
        error: `${capped} Nothing was sent.`,
      });
      const before2 = await sessionIds();
      const created = await served.tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "grok",
        text: "Spend elsewhere.",
      });
      expect(created).toMatchObject({
        ok: false,
        code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
        remoteCode: "MONTHLY_CAP_REACHED",
        error: `${capped} Nothing was created.`,
      });
      expect(await sessionIds()).toEqual(before2);
      expect((await ended(id)).turns).toHaveLength(1);
      expect(requestsFrom(from)).toEqual([]);
    });
  });
}

describe("PGlite", () => {
  apiModelsFlow("PGlite", () => undefined);
});

describe.skipIf(TEST_POSTGRES_URL === undefined)("Postgres", () => {
  const database = useScratchPostgres();
  apiModelsFlow("Postgres", () => database().url);
});
