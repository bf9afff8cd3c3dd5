import { describe, expect, it } from "vitest";
import { settle, track } from "../actions/harness";
import { type FedRelay, flowAll, pairedWithDeploy } from "./harness";

const POLL_MS = 5_000;
const UNREACHABLE_POLL_MS = 30_000;

const paired = () => pairedWithDeploy("ask about the deploy on build-box");

const flow = flowAll;

/** ask about a session of build-box from desk's caller; a card in ask/plan only, none here (agent mode). */
async function askThere(desk: FedRelay, session: string, question = "Deploy tonight?") {
  const call = track(
    desk.call({ action: "ask", relay: "build-box", session, question, options: ["Yes", "No"] }),
  );
  await settle(30);
  const result = await call.promise;
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true, relay: "build-box", status: "pending" });
  return result.question_id as string;
}

async function answeredLines(relay: FedRelay) {
  return (await relay.stores.sessions.listMessages(relay.caller.id))
    .filter((m) => m.role === "relay" && m.text.includes("question_answered"))
    .map((m) => m.text);
}

describe("R-QCHK-05: a question about a session of a paired relay", () => {
  it("is kept there; this relay polls every 5 s and wakes the asker with the answer and where it was given", async () => {
    const { fed, desk, box, target } = await paired();
    const id = await askThere(desk, target.id);
    // Kept on build-box, asked by desk's conversation; desk keeps a copy under the same id.
    expect(await box.stores.questions.getInboxQuestion(id)).toMatchObject({
      askingRelay: "desk",
      askingSession: desk.caller.id,
      sessionId: target.id,
      keptOnRelay: null,
    });
    expect(await desk.stores.questions.getInboxQuestion(id)).toMatchObject({ keptOnRelay: "build-box" });
    const [item] = await box.engine.owner.listInbox();
    expect(item).toMatchObject({ question_id: id, askedBy: { id: desk.caller.id, relay: "desk" } });

    await fed.clock.advanceAsync(POLL_MS);
    await flow(desk, box);
    expect(await answeredLines(desk)).toEqual([]);
    // desk's Inbox shows it as kept on build-box, where the owner answers it.
    expect(await desk.engine.owner.listInbox()).toEqual([
      expect.objectContaining({ question_id: id, keptOn: "build-box" }),
    ]);
    await expect(desk.engine.owner.answerInbox(id, { choice: "Yes" })).rejects.toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
    });

    await box.engine.owner.answerInbox(id, { choice: "No" });
    await flow(desk, box);
    // The session concerned there hears it with no subscription (R-QCHK-04).
    const there = (await box.stores.sessions.listMessages(target.id)).filter(
      (m) => m.role === "relay" && m.text.includes("question_answered"),
    );
    expect(there).toHaveLength(1);
    await fed.clock.advanceAsync(POLL_MS);
    await flow(desk, box);
    const [line] = await answeredLines(desk);
    expect(line).toContain(
      `build-box · session "Nightly deploy" (${target.id}): question_answered (question ${id}) choice "No"`,
    );
    expect(await desk.stores.questions.getInboxQuestion(id)).toMatchObject({
      status: "answered",
      via: "build-box",
      nextPollAt: null,
    });
    // R-LQ-03: list_questions there shows what this conversation asked there.
    const listed = await desk.ok({ action: "list_questions", relay: "build-box" });
    expect(listed.questions).toEqual([
      expect.objectContaining({ question_id: id, status: "answered", choice: "No" }),
    ]);
  });

  it("polls every 30 s while the relay does not answer, and a question withdrawn there closes silently", async () => {
    const { fed, desk, box, target } = await paired();
    const id = await askThere(desk, target.id);
    fed.down.add("build-box");
    await fed.clock.advanceAsync(POLL_MS);
    await flow(desk, box);
    expect((await desk.stores.questions.getInboxQuestion(id))?.nextPollAt).toBe(
      fed.clock.now() + UNREACHABLE_POLL_MS,
    );
    fed.down.delete("build-box");
    await desk.ok({ action: "withdraw", relay: "build-box", question_id: id });
    await fed.clock.advanceAsync(UNREACHABLE_POLL_MS);
    await flow(desk, box);
    expect(await desk.stores.questions.getInboxQuestion(id)).toMatchObject({
      status: "withdrawn",
      nextPollAt: null,
    });
    expect(await answeredLines(desk)).toEqual([]);
  });

  it("R-WDR-03: removing the pairing ends the question; another relay cannot read it", async () => {
    const { fed, desk, box, target } = await paired();
    const id = await askThere(desk, target.id);
    await expect(box.engine.peerQuestion("elsewhere", id)).rejects.toMatchObject({
      code: "REMOTE_RELAY_NOT_FOUND",
    });
    expect(await box.engine.peerQuestion("desk", id)).toMatchObject({ question_id: id, status: "pending" });
    await desk.engine.owner.removePeer("build-box");
    // At once, in the removal's own change; no poll goes there any more.
    expect(await desk.stores.questions.getInboxQuestion(id)).toMatchObject({
      status: "ended",
      nextPollAt: null,
    });
    await fed.clock.advanceAsync(POLL_MS);
    await flow(desk, box);
    expect(await answeredLines(desk)).toEqual([]);
  });
});
