import { FakeClock } from "@oar/core/testing";
import { describe, expect, it } from "vitest";
import { eventually } from "../harness";
import { bearer, call, createNetwork, externalCaller, invite, ownerSession, pair, session } from "./network";

describe("R-QCHK-05 questions about a session of a paired relay, over HTTP between two relays", {
  timeout: 60_000,
}, () => {
  it("kept on build-box, answered in its Inbox, heard on desk through GET /v1/peer/questions/:id", async () => {
    const clock = new FakeClock(Date.now());
    const net = createNetwork();
    const desk = await net.relay("desk", { overrides: { clock } });
    const box = await net.relay("build-box", { overrides: { clock } });
    await pair(desk, box);
    const deploy = await ownerSession(box, "Nightly deploy");
    const lead = await externalCaller(desk, { title: "Lead", mentions: "ask about the deploy on build-box" });

    const asked = await call(desk, lead.token, {
      action: "ask",
      relay: "build-box",
      session: deploy,
      question: "Deploy tonight?",
      options: ["Yes", "Wait"],
    });
    expect(asked).toMatchObject({ ok: true, relay: "build-box", status: "pending" });
    const id = asked.question_id as string;
    const { questions } = await box.ownerJson<{ questions: { question_id: string; askedBy: unknown }[] }>(
      "GET",
      "/v1/owner/inbox",
    );
    expect(questions).toEqual([
      expect.objectContaining({ question_id: id, askedBy: { id: lead.id, title: "", relay: "desk" } }),
    ]);
    await box.ownerJson("POST", `/v1/owner/inbox/${id}`, { choice: "Wait" });

    // desk looks every 5 s (its clock): the answer arrives as question_answered, with where it was given.
    const line = await eventually(async () => {
      clock.advance(5_000);
      const messages = (await session(desk, lead.id)).messages;
      return messages.find((m) => m.role === "relay" && m.text.includes("question_answered"))?.text;
    }, 20_000);
    expect(line).toContain(
      `build-box · session "Nightly deploy" (${deploy}): question_answered (question ${id}) choice "Wait"`,
    );
  });

  it("GET /v1/peer/questions/:id answers only the relay that asked: another invite gets 410, none 401", async () => {
    const net = createNetwork();
    const desk = await net.relay("desk");
    const box = await net.relay("build-box");
    await pair(desk, box);
    const deploy = await ownerSession(box, "Nightly deploy");
    const lead = await externalCaller(desk, { title: "Lead", mentions: "ask on build-box" });
    const asked = await call(desk, lead.token, {
      action: "ask",
      relay: "build-box",
      session: deploy,
      question: "Now?",
    });
    const id = asked.question_id as string;

    // An invite of build-box that desk does not hold (no relay bound to it) reads nothing there;
    // one bound to another relay neither (the engine's tests: peerQuestion of another relay).
    const outsider = await invite(box);
    const refused = await bearer(box, "GET", `/v1/peer/questions/${id}`, outsider, undefined);
    expect(refused.status).toBe(410);
    expect(await refused.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    expect((await bearer(box, "GET", `/v1/peer/questions/${id}`, undefined)).status).toBe(401);
  });
});
