import { existsSync } from "node:fs";
import { join } from "node:path";
import { hang, text, toolUse } from "@oar/providers/testing";
import type { ProviderInfo } from "@oar/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./harness";
import {
  BYOK_MODEL,
  bodyOf,
  type CopilotTestbed,
  conversationOf,
  createCopilotTestbed,
  pinnedCopilotBinary,
  toolResultsOf,
} from "./support/copilot-testbed";
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

interface QuestionCard {
  readonly id: string;
  readonly kind: string;
  readonly sessionId: string;
  readonly text: string;
  readonly options: readonly string[];
  readonly status: string;
}

// A real CLI per session: it starts in a second or two here, but a loaded CI box is slower.
const TEST_TIMEOUT_MS = 60_000;
const TURN_TIMEOUT_MS = 45_000;
const COPILOT_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];
const PERMISSION_OPTIONS = ["Allow once", "Always allow", "Deny"];

/**
 * Issue 30 (DESIGN §5): the real GitHub Copilot CLI as the relay's built-in `copilot` ACP agent,
 * and as an ACP agent defined in the settings, run offline in BYOK mode against a fake Messages
 * API, driven only through the relay's HTTP surfaces (owner API and /v1/tool).
 */
function copilotFlow(database: string, databaseUrl: () => string | undefined) {
  // What the agent and its cards do does not depend on the store: these run on PGlite only, and the
  // Postgres leg keeps what rows carry (the provider list, the tool-call log, a card, the restart).
  const onPGliteOnly = (name: string, test: () => Promise<void>) => {
    if (database === "PGlite") {
      it(name, test);
    }
  };
  const bin = pinnedCopilotBinary();
  let bed: CopilotTestbed;
  let served: ServedRelay;
  let caller: { id: string; token: string };

  const start = () => {
    const url = databaseUrl();
    return serveRelay({
      dataDir: join(bed.root, "data"),
      allowedRoots: [bed.work],
      ...(url === undefined ? {} : { databaseUrl: url }),
      env: { RELAY_COPILOT_BIN: bin },
      overrides: { childEnv: bed.env },
    });
  };
  const providersOf = async () =>
    ((await served.tool(caller.token, { action: "relay_info", relay: "this" })).providers ??
      []) as ProviderInfo[];
  const providerOf = async (id: string) => (await providersOf()).find((provider) => provider.id === id);
  const newSession = async (body: Record<string, unknown>) =>
    (await served.ownerJson<SessionView>("POST", "/v1/owner/sessions", { cwd: bed.work, ...body })).id;
  const detailOf = (id: string) => served.ownerJson<SessionDetail>("GET", `/v1/owner/sessions/${id}`);
  const ended = (id: string) => turnsEnded(served, id, TURN_TIMEOUT_MS);
  /** The agent processes running now (the CLIs and what they started), by pid. */
  const living = () => bed.livingProcesses().sort((a, b) => a - b);
  /** The fake API's conversation requests from the `from`-th on. */
  const requestsFrom = (from: number) => bed.fake.messageRequests.slice(from);
  /** The session's pending question card, once its turn waits on one. */
  const pendingCard = (sessionId: string) =>
    eventually(async () => {
      const { cards } = await served.ownerJson<{ cards: QuestionCard[] }>(
        "GET",
        "/v1/owner/cards?status=pending",
      );
      return cards.find((card) => card.sessionId === sessionId);
    }, TURN_TIMEOUT_MS);

  beforeAll(async () => {
    bed = await createCopilotTestbed();
    served = await start();
    caller = await externalCaller(served);
  });
  afterAll(async () => {
    await served?.close();
    await bed?.dispose();
  });

  describe(`Copilot and ACP agents over HTTP (${database})`, { timeout: TEST_TIMEOUT_MS }, () => {
    it("relay_info and the owner's providers list copilot with its dotted model ids (the BYOK model first, the default) and efforts; an owner session on it runs a turn to done", async () => {
      const listed = await providerOf("copilot");
      expect(listed).toMatchObject({
        id: "copilot",
        name: "Copilot",
        defaultModel: BYOK_MODEL,
        efforts: COPILOT_EFFORTS,
      });
      expect(listed?.notConfigured).toBeUndefined();
      expect(listed?.models[0]).toBe(BYOK_MODEL);
      expect(listed?.models).toEqual(expect.arrayContaining(["claude-haiku-4.5", "gpt-5.4", "gpt-5-mini"]));
      // Copilot writes versions with dots: claude-haiku-4.5, never claude-haiku-4-5 (R-MDL-05).
      expect(listed?.models.filter((model) => /\d-\d/.test(model))).toEqual([]);
      const { providers } = await served.ownerJson<{ providers: ProviderInfo[] }>(
        "GET",
        "/v1/owner/providers",
      );
      expect(providers.find((provider) => provider.id === "copilot")).toEqual(listed);

      const from = bed.fake.messageRequests.length;
      bed.fake.enqueue(text("Hello from the fake model."));
      const id = await newSession({ provider: "copilot", title: "Copilot", text: "Say hello." });
      const session = await ended(id);
      expect(session).toMatchObject({ provider: "copilot", model: BYOK_MODEL, cwd: bed.work });
      expect(session.turns).toEqual([
        expect.objectContaining({ status: "done", reply: "Hello from the fake model.", error: null }),
      ]);
      expect(session.messages.map((message) => [message.role, message.text])).toEqual([
        ["user", "Say hello."],
        ["assistant", "Hello from the fake model."],
      ]);
      const [request] = requestsFrom(from);
      expect(bodyOf(request).model).toBe(BYOK_MODEL);
      expect(conversationOf(request)).toContain("Say hello.");
      // What the agent offers once it runs keeps the BYOK model first, as the default.
      const after = await providerOf("copilot");
      expect(after?.defaultModel).toBe(BYOK_MODEL);
      expect(after?.models[0]).toBe(BYOK_MODEL);
    });

    it("relay_tool: the model's relay-relay_tool call reaches the relay as the session, without a card, is in the session's tool-call log, and the model gets the relay's real answer", async () => {
      const from = bed.fake.messageRequests.length;
      bed.fake.enqueue(
        toolUse("relay-relay_tool", { action: "list_sessions", relay: "this" }),
        text("Listed the sessions."),
      );
      const id = await newSession({ provider: "copilot", title: "Lister", text: "List the sessions." });
      const session = await ended(id);
      expect(session.turns).toEqual([
        expect.objectContaining({ status: "done", reply: "Listed the sessions." }),
      ]);
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
      // The caller made no such call: the log is the Copilot session's own.
      expect((await detailOf(caller.id)).toolCalls.map((call) => call.action)).not.toContain("list_sessions");

      const [first, second] = requestsFrom(from);
      expect(bodyOf(first).tools?.map((tool) => tool.name)).toContain("relay-relay_tool");
      const results = toolResultsOf(second);
      expect(results).toHaveLength(1);
      const answer = JSON.stringify(results[0]?.content);
      expect(results[0]?.is_error ?? false).toBe(false);
      // The relay's real list: this session and the caller, by id.
      expect(answer).toContain(id);
      expect(answer).toContain(caller.id);
      const { cards } = await served.ownerJson<{ cards: QuestionCard[] }>("GET", "/v1/owner/cards");
      expect(cards.filter((card) => card.sessionId === id)).toEqual([]);
    });

    it("a permission request is a question card with the agent's options; Allow once runs the command and the turn ends done", async () => {
      bed.fake.enqueue(
        toolUse("bash", { command: "echo made > allowed.txt", description: "Write a file" }),
        text("Written."),
      );
      const id = await newSession({ provider: "copilot", title: "Writer", text: "Write the file." });
      const waiting = await served.tool(caller.token, {
        action: "wait",
        relay: "this",
        session: id,
        wait_seconds: 40,
      });
      const question = "Copilot asked to use Write a file (echo made > allowed.txt). Allow it?";
      expect(waiting).toMatchObject({
        ok: true,
        status: "waiting",
        pendingQuestions: [expect.objectContaining({ text: question, options: PERMISSION_OPTIONS })],
      });
      const card = await pendingCard(id);
      expect(card).toMatchObject({ kind: "question", text: question, options: PERMISSION_OPTIONS });
      expect((await detailOf(id)).pendingQuestions).toEqual([expect.objectContaining({ id: card.id })]);
      expect(existsSync(join(bed.work, "allowed.txt"))).toBe(false);

      const answered = await served.ownerJson<QuestionCard>("POST", `/v1/owner/cards/${card.id}`, {
        choices: ["Allow once"],
      });
      expect(answered.status).toBe("answered");
      const [turn] = (await ended(id)).turns;
      expect(turn).toMatchObject({ status: "done", reply: "Written." });
      expect(existsSync(join(bed.work, "allowed.txt"))).toBe(true);
    });

    onPGliteOnly(
      "Deny on the card: the command does not run, Copilot ends the turn and the reply says the owner denied it",
      async () => {
        bed.fake.enqueue(toolUse("bash", { command: "echo made > denied.txt", description: "Write a file" }));
        const id = await newSession({ provider: "copilot", title: "Denied", text: "Write the other file." });
        const card = await pendingCard(id);
        expect(card.options).toEqual(PERMISSION_OPTIONS);
        await served.ownerJson("POST", `/v1/owner/cards/${card.id}`, { choices: ["Deny"] });
        const [turn] = (await ended(id)).turns;
        expect(turn).toMatchObject({
          status: "done",
          reply:
            "Info: Operation cancelled by user\nDenied by the owner: Write a file (echo made > denied.txt).",
        });
        expect(existsSync(join(bed.work, "denied.txt"))).toBe(false);
      },
    );

    onPGliteOnly(
      "a stop while the card is pending: the card ends unanswered, the command does not run, the turn is stopped",
      async () => {
        bed.fake.enqueue(
          toolUse("bash", { command: "echo made > stopped.txt", description: "Write a file" }),
        );
        const id = await newSession({ provider: "copilot", title: "Stopped", text: "Write a third file." });
        const card = await pendingCard(id);
        expect(await served.tool(caller.token, { action: "stop", relay: "this", session: id })).toMatchObject(
          {
            ok: true,
            stopRequested: true,
          },
        );
        const [turn] = (await ended(id)).turns;
        expect(turn?.status).toBe("stopped");
        const { cards } = await served.ownerJson<{ cards: QuestionCard[] }>("GET", "/v1/owner/cards");
        expect(cards.find((listed) => listed.id === card.id)?.status).toBe("ended");
        const late = await served.owner<ErrorBody>("POST", `/v1/owner/cards/${card.id}`, {
          choices: ["Allow once"],
        });
        expect(late.status).not.toBe(200);
        expect(existsSync(join(bed.work, "stopped.txt"))).toBe(false);
      },
    );

    onPGliteOnly(
      "Kill (the owner's stop) ends a turn whose model hangs `stopped` within seconds; the next prompt restarts the agent and is done; stop over /v1/tool cancels the prompt and keeps the agent",
      async () => {
        bed.fake.enqueue(hang());
        const id = await newSession({ provider: "copilot", title: "Stuck", text: "Think for ever." });
        await bed.fake.hanging();
        const beforeKill = living();
        const killedAt = Date.now();
        expect(await served.ownerJson("POST", `/v1/owner/sessions/${id}/kill`)).toEqual({ ok: true });
        const [killed] = (await ended(id)).turns;
        expect(killed?.status).toBe("stopped");
        expect(Date.now() - killedAt).toBeLessThan(5_000);
        // Its agent is gone, and only it: the other sessions' agents run on.
        const afterKill = living();
        expect(afterKill.length).toBeLessThan(beforeKill.length);
        expect(beforeKill).toEqual(expect.arrayContaining(afterKill));

        bed.fake.enqueue(text("Back after the kill."));
        await served.ownerJson("POST", `/v1/owner/sessions/${id}/messages`, { text: "Are you there?" });
        const [, next] = (await ended(id)).turns;
        expect(next).toMatchObject({ status: "done", reply: "Back after the kill." });

        bed.fake.enqueue(hang());
        await served.ownerJson("POST", `/v1/owner/sessions/${id}/messages`, { text: "Think again." });
        await bed.fake.hanging();
        const agents = living();
        const stoppedAt = Date.now();
        expect(await served.tool(caller.token, { action: "stop", relay: "this", session: id })).toMatchObject(
          {
            ok: true,
            stopRequested: true,
          },
        );
        const [, , stopped] = (await ended(id)).turns;
        expect(stopped?.status).toBe("stopped");
        expect(Date.now() - stoppedAt).toBeLessThan(5_000);
        // Copilot ended the cancelled prompt itself, within the cancel grace: its agent was not killed.
        expect(living()).toEqual(agents);

        bed.fake.enqueue(text("Back after the stop."));
        const sent = await served.tool(caller.token, {
          action: "send",
          relay: "this",
          session: id,
          text: "Still there?",
          wait_seconds: 40,
        });
        expect(sent).toMatchObject({ ok: true, status: "done", reply: { text: "Back after the stop." } });
        expect(living()).toEqual(agents);
      },
    );

    onPGliteOnly(
      "a second ACP agent defined in the settings: listed with its label and models, runs a turn; bad definitions are refused naming the field and change nothing; null removes it",
      async () => {
        const definition = {
          acp: [process.execPath, bin, "--acp", "--model", "{model}"],
          models: [BYOK_MODEL],
          label: "Copilot (via settings)",
        };
        const patched = await served.ownerJson<OwnerSettingsView>("PATCH", "/v1/owner/settings", {
          providers: { "copilot-alt": definition },
        });
        expect(patched.providers["copilot-alt"]).toEqual(definition);
        expect(await providerOf("copilot-alt")).toEqual({
          id: "copilot-alt",
          name: "Copilot (via settings)",
          defaultModel: BYOK_MODEL,
          models: [BYOK_MODEL],
          efforts: [],
        });

        bed.fake.enqueue(text("Hello via the settings."));
        const id = await newSession({ provider: "copilot-alt", title: "Alt", text: "Say hello again." });
        const session = await ended(id);
        expect(session).toMatchObject({ provider: "copilot-alt", model: BYOK_MODEL });
        expect(session.turns).toEqual([
          expect.objectContaining({ status: "done", reply: "Hello via the settings." }),
        ]);

        const before = await served.ownerJson<OwnerSettingsView>("GET", "/v1/owner/settings");
        const cases: [Record<string, unknown>, string][] = [
          [{ acp: [] }, "providers.bad.acp:"],
          [{ acp: ["x"], env: { "1BAD": "v" } }, "providers.bad.env:"],
          [{ acp: ["x"], colour: "red" }, "providers.bad.colour:"],
          [{ acp: ["x"], models: [] }, "providers.bad.models:"],
          [{ acp: ["x"], timeoutSeconds: 0 }, "providers.bad.timeoutSeconds:"],
          [{ acp: [process.execPath, "{foo}"] }, "providers.bad.acp:"],
        ];
        for (const [entry, field] of cases) {
          // A good entry and another setting in the same patch are not applied either.
          const answer = await served.owner<ErrorBody>("PATCH", "/v1/owner/settings", {
            quietAfterMinutes: before.quietAfterMinutes + 7,
            providers: { bad: entry, good: definition },
          });
          expect(answer.status, JSON.stringify(entry)).toBe(400);
          expect(answer.body).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
          expect(answer.body.error, JSON.stringify(entry)).toContain(field);
        }
        // The built-in copilot cannot be redefined as an ACP agent of the settings.
        const reserved = await served.owner<ErrorBody>("PATCH", "/v1/owner/settings", {
          providers: { copilot: definition },
        });
        expect(reserved.status).toBe(400);
        expect(reserved.body).toMatchObject({ code: "REMOTE_RELAY_INVALID_INPUT" });
        expect(reserved.body.error).toContain("providers.copilot:");
        expect(await served.ownerJson<OwnerSettingsView>("GET", "/v1/owner/settings")).toEqual(before);
        const ids = (await providersOf()).map((provider) => provider.id);
        expect(ids).not.toContain("bad");
        expect(ids).not.toContain("good");
        expect(ids).toContain("copilot-alt");

        const removed = await served.ownerJson<OwnerSettingsView>("PATCH", "/v1/owner/settings", {
          providers: { "copilot-alt": null },
        });
        expect(Object.keys(removed.providers)).not.toContain("copilot-alt");
        expect((await providersOf()).map((provider) => provider.id)).not.toContain("copilot-alt");
        const sent = await served.tool(caller.token, {
          action: "send",
          relay: "this",
          session: id,
          text: "after the removal",
        });
        expect(sent).toMatchObject({ ok: false, code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE" });
      },
    );

    // Last: it closes the relay the tests share and leaves it closed.
    it("keeps the conversation across a relay restart (session/load); no agent process outlives the closed relay, idle, hanging or waiting on a card", async () => {
      bed.fake.enqueue(text("Noted: blue."));
      const id = await newSession({ provider: "copilot", title: "Colours", text: "My colour is blue." });
      expect((await ended(id)).turns[0]).toMatchObject({ status: "done", reply: "Noted: blue." });
      const { providerState } = await served.ownerJson<{ providerState: unknown }>(
        "GET",
        `/v1/owner/sessions/${id}`,
      );
      expect(providerState).toEqual({ acpSessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      // One agent whose model hangs, one waiting on the owner's card, when the relay closes.
      bed.fake.enqueue(hang());
      const hanging = await newSession({ provider: "copilot", title: "Hanging", text: "Think for ever." });
      await bed.fake.hanging();
      bed.fake.enqueue(toolUse("bash", { command: "echo made > closed.txt", description: "Write a file" }));
      const asking = await newSession({ provider: "copilot", title: "Asking", text: "Write a file." });
      await pendingCard(asking);
      expect(bed.livingProcesses()).not.toEqual([]);

      await served.close();
      expect(bed.livingProcesses()).toEqual([]);
      served = await start();
      for (const cut of [hanging, asking]) {
        const [turn] = (await detailOf(cut)).turns;
        // The turns the closed relay was running ended with it (the wording differs on a shared Postgres).
        expect(turn?.status).toBe("error");
        expect(turn?.error).toMatch(/^The relay (restarted|process running this turn went away)/);
      }
      expect(existsSync(join(bed.work, "closed.txt"))).toBe(false);

      const from = bed.fake.messageRequests.length;
      bed.fake.enqueue(text("It was blue."));
      const sent = await served.tool(caller.token, {
        action: "send",
        relay: "this",
        session: id,
        text: "What was my colour?",
        wait_seconds: 40,
      });
      expect(sent).toMatchObject({ ok: true, status: "done", reply: { text: "It was blue." } });
      const [request] = requestsFrom(from);
      expect(conversationOf(request)).toContain("My colour is blue.");
      expect(conversationOf(request)).toContain("What was my colour?");
      const session = await ended(id);
      expect(session.turns.map((turn) => [turn.status, turn.reply])).toEqual([
        ["done", "Noted: blue."],
        ["done", "It was blue."],
      ]);
      // The conversation was reopened (session/load), not started anew.
      expect(
        (await served.ownerJson<{ providerState: unknown }>("GET", `/v1/owner/sessions/${id}`)).providerState,
      ).toEqual(providerState);

      await served.close();
      expect(bed.livingProcesses()).toEqual([]);
    });
  });
}

describe("PGlite", () => {
  copilotFlow("PGlite", () => undefined);
});

describe.skipIf(TEST_POSTGRES_URL === undefined)("Postgres", () => {
  const database = useScratchPostgres();
  copilotFlow("Postgres", () => database().url);
});
