import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./harness";
import { TEST_POSTGRES_URL, useScratchPostgres } from "./support/postgres";
import { type ServedRelay, type SessionView, serveRelay, turnsEnded } from "./support/served-relay";

interface InboxItem {
  readonly question_id: string;
  readonly status: string;
  readonly question: string;
  readonly options?: string[];
  readonly session: { id: string; title: string };
  readonly askedBy: { id: string; title: string; relay: string | null };
}

/** A relay over HTTP with an external caller ("Planner", the agent making the calls) and a script session. */
function useRelay(databaseUrl?: () => string) {
  const state = {} as {
    root: string;
    served: ServedRelay;
    planner: { id: string; token: string };
    builder: { id: string };
  };
  beforeAll(async () => {
    state.root = await mkdtemp(join(tmpdir(), "oar-schedules-"));
    state.served = await serveRelay({
      dataDir: join(state.root, "data"),
      allowedRoots: [state.root],
      ...(databaseUrl === undefined ? {} : { databaseUrl: databaseUrl() }),
    });
    const planner = await state.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
      provider: "external",
      title: "Planner",
    });
    state.planner = { id: planner.id, token: await state.served.agentToken(planner.id) };
    state.builder = await state.served.ownerJson<{ id: string }>("POST", "/v1/owner/sessions", {
      title: "Builder",
    });
  });
  afterAll(async () => {
    await state.served?.close();
    await rm(state.root, { recursive: true, force: true });
  });
  return state;
}

const session = (served: ServedRelay, id: string) =>
  served.ownerJson<SessionView>("GET", `/v1/owner/sessions/${id}`);

function describeOn(label: string, databaseUrl?: () => string) {
  describe(`schedules, the Inbox and compaction over HTTP on ${label}`, { timeout: 60_000 }, () => {
    const t = useRelay(databaseUrl);

    it("R-SCH-07/08: a schedule for another session fires at its time with the prefix line and runs a turn there", async () => {
      const at = new Date(Date.now() + 1_500).toISOString();
      const created = await t.served.tool(t.planner.token, {
        action: "schedule",
        title: "Nightly review",
        at,
        text: "!reply reviewed",
        session: t.builder.id,
      });
      expect(created).toMatchObject({
        ok: true,
        schedule: { once: true, nextFireAt: at, session: { title: "Builder" } },
      });
      const id = created.schedule_id as string;
      const message = await eventually(async () => {
        const found = (await session(t.served, t.builder.id)).messages.find((m) =>
          m.text.startsWith(
            `[relay schedule ${id} "Nightly review" · once · set by "Planner" (${t.planner.id}) · automated message`,
          ),
        );
        return found;
      }, 15_000);
      expect(message.role).toBe("relay");
      const ended = await turnsEnded(t.served, t.builder.id);
      expect(ended.turns.at(-1)).toMatchObject({ status: "done" });
      const listed = await t.served.tool(t.planner.token, { action: "list_schedules" });
      expect(listed.schedules).toEqual([
        expect.objectContaining({
          id,
          firedCount: 1,
          endReason: "fired",
          setBy: { id: t.planner.id, title: "Planner" },
        }),
      ]);
      // The ⏰ list of the owner's view, and Cancel there (R-SCHEND-01).
      const later = await t.served.tool(t.planner.token, {
        action: "schedule",
        title: "Later",
        every_minutes: 30,
        text: "x",
      });
      const view = await t.served.ownerJson<{ schedules: { id: string }[] }>(
        "GET",
        `/v1/owner/sessions/${t.planner.id}`,
      );
      expect(view.schedules.map((s) => s.id)).toEqual([id, later.schedule_id]);
      const cancelled = await t.served.ownerJson("POST", `/v1/owner/schedules/${later.schedule_id}/cancel`);
      expect(cancelled).toMatchObject({ id: later.schedule_id, endReason: "unscheduled" });
      expect(await t.served.owner("POST", "/v1/owner/schedules/sch_nope/cancel")).toMatchObject({
        status: 404,
        body: { code: "REMOTE_RELAY_NOT_FOUND" },
      });
      const unknown = await t.served.tool(t.planner.token, { action: "unschedule", schedule_id: "sch_nope" });
      expect(unknown).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    });

    it("§34: ask returns pending, the owner answers in the Inbox, the asker gets question_answered", async () => {
      const asked = await t.served.tool(t.planner.token, {
        action: "ask",
        question: "Ship the migration tonight or wait for the review?",
        options: ["Tonight", "Wait"],
        recommendation: "Wait",
      });
      expect(asked).toMatchObject({ ok: true, status: "pending" });
      const id = asked.question_id as string;
      const { questions } = await t.served.ownerJson<{ questions: InboxItem[] }>("GET", "/v1/owner/inbox");
      expect(questions).toEqual([
        expect.objectContaining({
          question_id: id,
          status: "pending",
          options: ["Tonight", "Wait"],
          askedBy: { id: t.planner.id, title: "Planner", relay: null },
        }),
      ]);
      const refused = await t.served.owner("POST", `/v1/owner/inbox/${id}`, { choice: "Never" });
      expect(refused).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
      const forbidden = await t.served.tool(t.planner.token, {
        action: "answer_question",
        relay: "this",
        question_id: id,
        answer: "me",
      });
      expect(forbidden).toMatchObject({ ok: false, code: "REMOTE_RELAY_FORBIDDEN" });
      const answered = await t.served.ownerJson<InboxItem>("POST", `/v1/owner/inbox/${id}`, {
        choice: "Wait",
      });
      expect(answered).toMatchObject({ status: "answered" });
      const woken = await eventually(async () =>
        (await session(t.served, t.planner.id)).messages.find((m) =>
          m.text.includes(`question_answered (question ${id})`),
        ),
      );
      expect(woken.text).toContain('choice "Wait"');
      const again = await t.served.owner("POST", `/v1/owner/inbox/${id}`, { answer: "late" });
      expect(again).toMatchObject({ status: 400 });
      const listed = await t.served.tool(t.planner.token, { action: "list_questions" });
      expect(listed.questions).toEqual([
        expect.objectContaining({ question_id: id, status: "answered", choice: "Wait" }),
      ]);
      expect(
        (await t.served.ownerJson<{ questions: unknown[] }>("GET", "/v1/owner/inbox")).questions,
      ).toEqual([]);
    });

    it("compaction moves the schedules and questions to the new conversation in one change", async () => {
      const repeating = await t.served.tool(t.planner.token, {
        action: "schedule",
        title: "Hourly",
        every_minutes: 60,
        text: "!reply tick",
      });
      const question = await t.served.tool(t.planner.token, { action: "ask", question: "Which tag?" });
      const next = await t.served.ownerJson<{ id: string; compactedFrom: string; title: string }>(
        "POST",
        `/v1/owner/sessions/${t.planner.id}/compact`,
      );
      expect(next).toMatchObject({ compactedFrom: t.planner.id, title: "Planner" });
      const old = await t.served.ownerJson<{ archivedAt: unknown; messages: { text: string }[] }>(
        "GET",
        `/v1/owner/sessions/${t.planner.id}`,
      );
      expect(old.archivedAt).not.toBeNull();
      expect(old.messages.at(-1)?.text).toContain(`continues in ${next.id}`);
      const token = await t.served.agentToken(next.id);
      const schedules = await t.served.tool(token, { action: "list_schedules" });
      expect((schedules.schedules as { id: string }[]).map((s) => s.id)).toContain(repeating.schedule_id);
      const questions = await t.served.tool(token, { action: "list_questions" });
      expect(questions.questions).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ question_id: question.question_id, status: "pending" }),
        ]),
      );
      const busy = await t.served.owner("POST", `/v1/owner/sessions/${t.planner.id}/compact`);
      expect(busy).toMatchObject({ status: 400, body: { code: "REMOTE_RELAY_INVALID_INPUT" } });
    });
  });
}

describeOn("PGlite");
describe.skipIf(TEST_POSTGRES_URL === undefined)("on Postgres", () => {
  const database = useScratchPostgres();
  describeOn("Postgres", () => database().url);
});
