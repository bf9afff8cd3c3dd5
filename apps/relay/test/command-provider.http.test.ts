import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { eventually, OWNER_TOKEN } from "./harness";
import { writeCommandAgent } from "./support/command-agent";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import { type ServedRelay, type SessionView, serveRelay, turnsEnded } from "./support/served-relay";
import { liveGroupMembers } from "./support/tasks";

interface ProviderInfo {
  readonly id: string;
  readonly name: string;
  readonly defaultModel: string | null;
  readonly models: readonly string[];
  readonly efforts: readonly string[];
}

interface Settings {
  readonly providers: Record<string, unknown>;
  readonly quietAfterMinutes: number;
}

interface ErrorBody {
  readonly ok: false;
  readonly code: string;
  readonly error: string;
}

const MODELS = ["echo-small", "echo-large"];

/**
 * DESIGN §4–§5: a command provider defined in the owner's settings, run for real: a Node script
 * agent started per turn in the session's folder, calling back into the relay over HTTP.
 */
function commandProviderFlow(database: string, databaseUrl: () => string | undefined) {
  let root: string;
  let work: string;
  let agent: string;
  let served: ServedRelay;
  let caller: { id: string; token: string };

  const definition = (extra: Record<string, unknown> = {}) => ({
    command: [process.execPath, agent, "{model}", "{session}", "{cwd}", "--effort={effort}"],
    models: MODELS,
    efforts: ["low", "high"],
    ...extra,
  });
  const providersOf = async () =>
    ((await served.tool(caller.token, { action: "relay_info", relay: "this" })).providers ??
      []) as ProviderInfo[];
  const newSession = async (body: Record<string, unknown>) =>
    (await served.ownerJson<SessionView>("POST", "/v1/owner/sessions", body)).id;
  /** The process group a `hang` turn of the agent leads (it writes its pid first). */
  const agentGroup = (sessionId: string) =>
    eventually(async () => {
      const text = await readFile(join(work, `agent-${sessionId}.pid`), "utf8").catch(() => "");
      return /^\d+$/.test(text) ? Number(text) : undefined;
    });
  /** A turn of the agent that runs until it is ended, once its output is streamed. */
  const hangingTurn = async () => {
    const id = await newSession({ provider: "echo", cwd: work, text: "please hang" });
    const pgid = await agentGroup(id);
    await eventually(async () => {
      const view = await served.ownerJson<{ inFlight: { text: string } | null }>(
        "GET",
        `/v1/owner/sessions/${id}`,
      );
      return view.inFlight?.text === "hanging\n" ? true : undefined;
    });
    return { id, pgid };
  };
  const groupGone = (pgid: number) =>
    eventually(async () => ((await liveGroupMembers(pgid)).length === 0 ? true : undefined), 15_000);

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "oar-command-"));
    work = join(root, "work");
    await mkdir(work);
    agent = await writeCommandAgent(root);
    // The relay's own secrets are in its environment, as when `oar-relay start` runs: children must not get them.
    vi.stubEnv("RELAY_OWNER_TOKEN", OWNER_TOKEN);
    vi.stubEnv("DATABASE_URL", databaseUrl() ?? "postgres://relay-secret@127.0.0.1:1/not-for-children");
    const url = databaseUrl();
    served = await serveRelay({
      dataDir: join(root, "data"),
      allowedRoots: [work],
      ...(url === undefined ? {} : { databaseUrl: url }),
    });
    await served.ownerJson("PATCH", "/v1/owner/settings", { providers: { echo: definition() } });
    const id = await newSession({ provider: "external", title: "Caller" });
    caller = { id, token: await served.agentToken(id) };
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await served?.close();
    if (root !== undefined) {
      await rm(root, { recursive: true, force: true });
    }
  });

  describe(`a command provider over HTTP (${database})`, { timeout: 60_000 }, () => {
    it("PATCH /v1/owner/settings defines it, GET shows it, and relay_info lists it with its models, default and efforts", async () => {
      const patched = await served.ownerJson<Settings>("PATCH", "/v1/owner/settings", {
        providers: {
          lint: definition({ models: ["fast", "deep"], timeoutSeconds: 600, label: "Lint agent" }),
        },
      });
      expect(patched.providers.lint).toEqual(
        definition({ models: ["fast", "deep"], timeoutSeconds: 600, label: "Lint agent" }),
      );
      const settings = await served.ownerJson<Settings>("GET", "/v1/owner/settings");
      expect(settings.providers.echo).toEqual(definition());
      expect(settings.providers.lint).toEqual(patched.providers.lint);

      const providers = await providersOf();
      expect(providers.find((provider) => provider.id === "echo")).toEqual({
        id: "echo",
        name: "Command: node",
        defaultModel: "echo-small",
        models: MODELS,
        efforts: ["low", "high"],
      });
      expect(providers.find((provider) => provider.id === "lint")).toMatchObject({
        name: "Lint agent",
        defaultModel: "fast",
        models: ["fast", "deep"],
      });
      // The built-in ones are still there.
      expect(providers.map((provider) => provider.id)).toContain("script");
    });

    it("an owner session on it: the turn runs the argv with its placeholders filled, in the session's folder, the prompt on stdin; the reply is stdout", async () => {
      const id = await newSession({
        provider: "echo",
        model: "echo-large",
        cwd: work,
        title: "Echo",
        text: "hello from the owner",
      });
      const session = await turnsEnded(served, id);
      expect(session).toMatchObject({ provider: "echo", model: "echo-large", cwd: work });
      const [turn] = session.turns;
      expect(turn).toMatchObject({ status: "done", error: null });
      const reply = turn?.reply ?? "";
      expect(reply.split("\n")).toEqual([
        `argv: ${JSON.stringify(["echo-large", id, work, "--effort="])}`,
        `cwd: ${work}`,
        "prompt: hello from the owner",
        `OAR_SESSION: ${id}`,
        "OAR_RELAY_URL set: true",
        "OAR_AGENT_TOKEN set: true",
        // The relay strips its secrets from its children's environment (DESIGN §7).
        "RELAY_OWNER_TOKEN set: false",
        "DATABASE_URL set: false",
      ]);
      expect(session.messages.map((message) => [message.role, message.text])).toEqual([
        ["user", "hello from the owner"],
        ["assistant", reply],
      ]);
    });

    it("its agent calls relay_tool back over HTTP with OAR_RELAY_URL and OAR_AGENT_TOKEN, as its session", async () => {
      const id = await newSession({ provider: "echo", cwd: work, text: "please call-relay now" });
      const [turn] = (await turnsEnded(served, id)).turns;
      expect(turn?.status).toBe("done");
      expect(turn?.reply).toContain(`argv: ${JSON.stringify(["echo-small", id, work, "--effort="])}`);
      expect(turn?.reply).toContain("relay call: HTTP 200 ok=true");
      expect(turn?.reply).toContain("relay call lists its own session: true");
    });

    it("a non-zero exit (3) ends the turn error with the exit code and the stderr tail; the reply so far is kept", async () => {
      const id = await newSession({ provider: "echo", cwd: work, text: "please fail" });
      const [turn] = (await turnsEnded(served, id)).turns;
      expect(turn?.status).toBe("error");
      expect(turn?.error).toContain("exited with code 3");
      expect(turn?.error).toContain("agent broke: the disk is on fire");
      expect(turn?.reply).toBe("partial reply before the failure");
    });

    it("stop over /v1/tool ends a running command turn `stopped` with the reply so far, and its whole process group is gone", async () => {
      const { id, pgid } = await hangingTurn();
      const stopped = await served.tool(caller.token, { action: "stop", relay: "this", session: id });
      expect(stopped).toMatchObject({ ok: true, stopRequested: true });
      const [turn] = (await turnsEnded(served, id)).turns;
      expect(turn?.status).toBe("stopped");
      expect(turn?.reply).toMatch(/^hanging/);
      await groupGone(pgid);
    });

    it("Kill (POST /v1/owner/sessions/:id/kill) ends a running command turn `stopped` and its process group; the next turn runs", async () => {
      const { id, pgid } = await hangingTurn();
      expect(await served.ownerJson("POST", `/v1/owner/sessions/${id}/kill`)).toEqual({ ok: true });
      expect((await turnsEnded(served, id)).turns[0]?.status).toBe("stopped");
      await groupGone(pgid);
      await served.ownerJson("POST", `/v1/owner/sessions/${id}/messages`, { text: "after the kill" });
      const [, next] = (await turnsEnded(served, id)).turns;
      expect(next).toMatchObject({ status: "done" });
      expect(next?.reply).toContain("prompt: after the kill");
    });

    it("a stopped turn's reply so far drops one trailing newline, as a done or error turn's reply does (packages/providers README)", async () => {
      const { id, pgid } = await hangingTurn();
      expect(await served.tool(caller.token, { action: "stop", relay: "this", session: id })).toMatchObject({
        stopRequested: true,
      });
      const [turn] = (await turnsEnded(served, id)).turns;
      await groupGone(pgid);
      expect(turn).toMatchObject({ status: "stopped", reply: "hanging" });
    });

    it("past timeoutSeconds the turn ends error saying so, and its process group is gone", async () => {
      await served.ownerJson("PATCH", "/v1/owner/settings", {
        providers: { slow: definition({ timeoutSeconds: 1 }) },
      });
      const id = await newSession({ provider: "slow", cwd: work, text: "please hang" });
      const pgid = await agentGroup(id);
      const [turn] = (await turnsEnded(served, id)).turns;
      expect(turn?.status).toBe("error");
      expect(turn?.error).toContain("ran longer than its timeout (1 s) and was killed");
      expect(turn?.reply).toBe("hanging");
      await groupGone(pgid);
    });

    it("another session's agent gets its reply with send over /v1/tool; the model and effort it names fill {model} and {effort}", async () => {
      const id = await newSession({ provider: "echo", cwd: work, text: "first" });
      await turnsEnded(served, id);
      const result = await served.tool(caller.token, {
        action: "send",
        relay: "this",
        session: id,
        text: "second, via send",
        model: "echo-large",
        effort: "high",
        wait_seconds: 30,
      });
      expect(result).toMatchObject({ ok: true, status: "done" });
      const reply = (result.reply as { text: string; model: string }).text;
      expect(reply).toContain("prompt: second, via send");
      expect(reply).toContain(`argv: ${JSON.stringify(["echo-large", id, work, "--effort=high"])}`);
      const badEffort = await served.tool(caller.token, {
        action: "send",
        relay: "this",
        session: id,
        text: "never delivered",
        effort: "extreme",
      });
      expect(badEffort).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
      expect(badEffort.error).toContain("low, high");
    });

    it("R-MDL-01/02: send and create_session with a model it does not offer → REMOTE_RELAY_UNKNOWN_MODEL, nothing sent or created", async () => {
      const id = await newSession({ provider: "echo", cwd: work, text: "before" });
      const before = await turnsEnded(served, id);
      const sessionsBefore = await served.ownerJson<{ sessions: unknown[] }>("GET", "/v1/owner/sessions");

      const sent = await served.tool(caller.token, {
        action: "send",
        relay: "this",
        session: id,
        text: "never delivered",
        model: "echo-largee",
      });
      expect(sent).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNKNOWN_MODEL", models: MODELS });
      expect(sent.suggestions).toContain("echo-large");
      expect(sent.error).toContain("echo-largee");

      const created = await served.tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "echo",
        model: "gpt-5",
        cwd: work,
        text: "never created",
      });
      expect(created).toMatchObject({ ok: false, code: "REMOTE_RELAY_UNKNOWN_MODEL", models: MODELS });

      const after = await served.ownerJson<SessionView>("GET", `/v1/owner/sessions/${id}`);
      expect(after.messages).toEqual(before.messages);
      expect(after.model).toBe(before.model);
      expect(
        (await served.ownerJson<{ sessions: unknown[] }>("GET", "/v1/owner/sessions")).sessions,
      ).toHaveLength(sessionsBefore.sessions.length);
    });

    it("a bad definition is refused with HTTP 400 REMOTE_RELAY_INVALID_INPUT naming the field, and nothing changes", async () => {
      const before = await served.ownerJson<Settings>("GET", "/v1/owner/settings");
      const cases: [Record<string, unknown>, string][] = [
        [{ command: [], models: ["m1"] }, "providers.bad.command:"],
        [{ command: [process.execPath, "--model={foo}"], models: ["m1"] }, "providers.bad.command:"],
        [{ command: [process.execPath], models: ["m1"], timeoutSeconds: 0 }, "providers.bad.timeoutSeconds:"],
        [{ command: [process.execPath], models: ["m1"], colour: "red" }, "providers.bad.colour:"],
        [{ command: [process.execPath], models: [] }, "providers.bad.models:"],
        [{ models: ["m1"] }, "providers.bad:"],
      ];
      for (const [entry, field] of cases) {
        // A good entry and another setting in the same patch are not applied either.
        const answer = await served.owner<ErrorBody>("PATCH", "/v1/owner/settings", {
          quietAfterMinutes: before.quietAfterMinutes + 7,
          providers: { bad: entry, good: definition() },
        });
        expect(answer.status, JSON.stringify(entry)).toBe(400);
        expect(answer.body).toMatchObject({ ok: false, code: "REMOTE_RELAY_INVALID_INPUT" });
        expect(answer.body.error).toContain(field);
      }
      const reserved = await served.owner<ErrorBody>("PATCH", "/v1/owner/settings", {
        providers: { script: definition() },
      });
      expect(reserved.status).toBe(400);
      expect(reserved.body.error).toContain("providers.script:");
      const unknownPlaceholder = await served.owner<ErrorBody>("PATCH", "/v1/owner/settings", {
        providers: { bad: { command: [process.execPath, "{foo}"], models: ["m1"] } },
      });
      expect(unknownPlaceholder.body.error).toContain("unknown placeholder {foo}");

      expect(await served.ownerJson<Settings>("GET", "/v1/owner/settings")).toEqual(before);
      const ids = (await providersOf()).map((provider) => provider.id);
      expect(ids).not.toContain("bad");
      expect(ids).not.toContain("good");
    });

    it("null removes it: relay_info no longer lists it, and a session on it gets REMOTE_RELAY_PROVIDER_UNAVAILABLE", async () => {
      await served.ownerJson("PATCH", "/v1/owner/settings", { providers: { gone: definition() } });
      expect((await providersOf()).map((provider) => provider.id)).toContain("gone");
      const id = await newSession({ provider: "gone", cwd: work, text: "while it exists" });
      expect((await turnsEnded(served, id)).turns[0]?.status).toBe("done");

      const settings = await served.ownerJson<Settings>("PATCH", "/v1/owner/settings", {
        providers: { gone: null },
      });
      expect(Object.keys(settings.providers)).not.toContain("gone");
      expect(settings.providers.echo).toEqual(definition());
      expect((await providersOf()).map((provider) => provider.id)).not.toContain("gone");

      const sent = await served.tool(caller.token, {
        action: "send",
        relay: "this",
        session: id,
        text: "after the removal",
      });
      expect(sent).toMatchObject({ ok: false, code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE" });
      expect(sent.error).toContain('"gone"');
      const posted = await served.owner<ErrorBody>("POST", `/v1/owner/sessions/${id}/messages`, {
        text: "from the owner, after the removal",
      });
      expect(posted.status).toBe(422);
      expect(posted.body.code).toBe("REMOTE_RELAY_PROVIDER_UNAVAILABLE");
      const created = await served.tool(caller.token, {
        action: "create_session",
        relay: "this",
        provider: "gone",
        cwd: work,
        text: "on a provider that is gone",
      });
      expect(created).toMatchObject({ ok: false, code: "REMOTE_RELAY_PROVIDER_UNAVAILABLE" });
      expect(
        (await served.ownerJson<SessionView>("GET", `/v1/owner/sessions/${id}`)).messages.map(
          (message) => message.text,
        ),
      ).not.toContain("after the removal");
    });

    it("R-USAGE-03: usage lists it as not_tracked", async () => {
      const usage = await served.tool(caller.token, { action: "usage", relay: "this" });
      expect(usage.ok).toBe(true);
      expect(usage.providers).toContainEqual({ provider: "echo", status: "not_tracked" });
    });
  });
}

describe("PGlite", () => {
  commandProviderFlow("PGlite", () => undefined);
});

describe.skipIf(TEST_POSTGRES_URL === undefined)("Postgres", () => {
  const database = useScratchPostgres();
  commandProviderFlow("Postgres", () => database().url);

  describe("two relay processes on one Postgres (DESIGN §9)", { timeout: 60_000 }, () => {
    it("a provider the owner defines through one relay is offered by the other, runs there, and is removed for both", async () => {
      const root = await mkdtemp(join(tmpdir(), "oar-command-twin-"));
      const work = join(root, "work");
      await mkdir(work);
      const agent = await writeCommandAgent(root);
      const start = (name: string) =>
        serveRelay({ dataDir: join(root, name), allowedRoots: [work], databaseUrl: database().url });
      const first = await start("first");
      const second = await start("second").catch(async (error: unknown) => {
        await first.close();
        throw error;
      });
      onTestFinished(async () => {
        await Promise.all([first.close(), second.close()]);
        await rm(root, { recursive: true, force: true });
      });
      const callerOn = async (relay: ServedRelay) => {
        const { id } = await relay.ownerJson<SessionView>("POST", "/v1/owner/sessions", {
          provider: "external",
        });
        return relay.agentToken(id);
      };
      const [firstCaller, secondCaller] = [await callerOn(first), await callerOn(second)];
      const offered = async (relay: ServedRelay, token: string) =>
        ((await relay.tool(token, { action: "relay_info", relay: "this" })).providers as ProviderInfo[]).map(
          (provider) => provider.id,
        );

      await first.ownerJson("PATCH", "/v1/owner/settings", {
        providers: { twin: { command: [process.execPath, agent, "{model}"], models: ["t1"] } },
      });
      // The settings are re-read at most once a second by the other process.
      await eventually(async () =>
        (await offered(second, secondCaller)).includes("twin") ? true : undefined,
      );
      const { id } = await second.ownerJson<SessionView>("POST", "/v1/owner/sessions", {
        provider: "twin",
        cwd: work,
        text: "via the second relay, call-relay",
      });
      const [turn] = (await turnsEnded(second, id)).turns;
      expect(turn?.status).toBe("done");
      expect(turn?.reply).toContain('argv: ["t1"]');
      expect(turn?.reply).toContain("relay call: HTTP 200 ok=true");

      await second.ownerJson("PATCH", "/v1/owner/settings", { providers: { twin: null } });
      await eventually(async () => ((await offered(first, firstCaller)).includes("twin") ? undefined : true));
      expect(await offered(second, secondCaller)).not.toContain("twin");
    });
  });
});
