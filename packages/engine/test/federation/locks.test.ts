import { ACTIONS } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { refusal } from "../actions/harness";
import { createFederation, type FedRelay, relayOf } from "./harness";

async function paired() {
  const fed = await createFederation(["desk", "build-box"]);
  const desk = relayOf(fed, "desk");
  const box = relayOf(fed, "build-box");
  await desk.pair(box);
  return { fed, desk, box };
}

/** A call of each action but list_relays on build-box, valid for the schema. */
function callsOn(relay: string, session: string): Record<string, unknown>[] {
  const args: Record<string, Record<string, unknown>> = {
    relay_info: {},
    usage: {},
    list_sessions: {},
    read_session: { session },
    read_task_output: { session, task_id: "tsk_1" },
    send: { session, text: "hi", wait_seconds: 0 },
    create_session: { text: "hi", wait_seconds: 0 },
    update_session: { session, title: "X" },
    wait: { session, wait_seconds: 0 },
    answer_question: { question_id: "q_1", answer: "yes" },
    stop: { session },
    archive: { session },
    subscribe: { sessions: [session] },
    unsubscribe: { subscription_id: "all" },
    list_subscriptions: {},
    transfer_subscriptions: { from: "ses_x" },
    schedule: { title: "Later", at: "2027-01-01T00:00:00Z", text: "later" },
    list_schedules: {},
    unschedule: { schedule_id: "sch_1" },
    ask: { question: "Q?", session },
    list_questions: {},
    withdraw: { question_id: "ask_1" },
  };
  return ACTIONS.filter((action) => action !== "list_relays").map((action) => ({
    action,
    relay,
    ...args[action],
  }));
}

/** desk's owner names build-box, and desk's agent sends a prompt to a new session there. */
async function promptFromDesk(desk: FedRelay, box: FedRelay) {
  const target = await box.ownerSession("Nightly deploy");
  await desk.write("build-box");
  await desk.ok({ action: "send", relay: "build-box", session: target.id, text: "status?", wait_seconds: 0 });
  return target;
}

describe("locked and unlocked paired relays (§3.2)", () => {
  it("R-LOCK-04, R-QCHK-01: a locked relay refuses every action but list_relays (and the question actions that need no mention) before anything reaches it", async () => {
    const { fed, desk, box } = await paired();
    const target = await box.ownerSession("Nightly deploy");
    for (const input of callsOn("build-box", target.id)) {
      const result = await desk.call(input);
      if (input.action === "list_questions") {
        // R-QCHK-01, R-LQ-03: the questions this conversation asked there, with no mention.
        expect(result).toMatchObject({ ok: true, relay: "build-box", questions: [] });
        continue;
      }
      const { code, error } = refusal(result);
      if (input.action === "schedule" || input.action === "list_schedules" || input.action === "unschedule") {
        // R-SCH-03: schedules live on this relay, whatever the lock.
        expect(code, String(input.action)).toBe("REMOTE_RELAY_UNSUPPORTED");
      } else if (input.action === "withdraw") {
        // R-QCHK-01: no setting and no mention; the relay that keeps the questions answers.
        expect(code, String(input.action)).toBe("REMOTE_RELAY_NOT_FOUND");
      } else if (input.action === "ask" && input.session === undefined) {
        // A question about the own conversation is kept on the own relay, not on a paired one.
        expect(code, String(input.action)).toBe("REMOTE_RELAY_INVALID_INPUT");
      } else {
        expect(code, String(input.action)).toBe("REMOTE_RELAY_LOCKED");
        expect(error).toContain("Ask the user to mention it");
      }
    }
    expect(fed.requests.map((entry) => entry.request.call.action)).toEqual(["list_questions", "withdraw"]);
    expect(await desk.ok({ action: "list_relays" })).toMatchObject({
      relays: [
        { name: "desk", self: true, unlocked: true },
        {
          name: "build-box",
          url: "https://build-box.test",
          online: true,
          version: "0.9.19",
          unlocked: false,
        },
      ],
    });
  });

  it("R-LOCK-01(a), R-LOCK-03: the owner naming the relay unlocks it for the rest of the conversation, and only there", async () => {
    const { desk } = await paired();
    const other = await desk.ownerSession("Elsewhere");
    await desk.write("Please check the deploy on build-box.");
    expect(await desk.ok({ action: "list_sessions", relay: "build-box" })).toMatchObject({
      relay: "build-box",
    });
    await desk.write("thanks, nothing more");
    await desk.ok({ action: "list_sessions", relay: "build-box" });
    expect(refusal(await desk.call({ action: "list_sessions", relay: "build-box" }, other.id)).code).toBe(
      "REMOTE_RELAY_LOCKED",
    );
    expect(await desk.ok({ action: "list_relays" })).toMatchObject({
      summary: "list_relays: 2 relays, 2 unlocked",
      relays: [{ name: "desk" }, { name: "build-box", unlocked: true }],
    });
  });

  it("R-LOCK-01(a): the host counts as a mention; code spans and other words do not", async () => {
    const { desk } = await paired();
    await desk.write("the `build-box` log says build-boxes are fine");
    expect(refusal(await desk.call({ action: "usage", relay: "build-box" })).code).toBe(
      "REMOTE_RELAY_LOCKED",
    );
    await desk.write("look at https://build-box.test/ please");
    await desk.ok({ action: "usage", relay: "build-box" });
  });

  it("R-LOCK-02: a relay whose host is an IP counts as mentioned only with @", async () => {
    const fed = await createFederation(["desk", "lab"], { urls: { lab: "https://10.0.0.7:8443" } });
    const desk = relayOf(fed, "desk");
    await desk.pair(relayOf(fed, "lab"));
    await desk.write("ping 10.0.0.7 and 10.0.0.7:8443");
    expect(refusal(await desk.call({ action: "usage", relay: "10.0.0.7" })).code).toBe("REMOTE_RELAY_LOCKED");
    await desk.write("ask @10.0.0.7");
    await desk.ok({ action: "usage", relay: "lab" });
  });

  it("R-RLY-03: a paired relay is named by its name or its host, in any case", async () => {
    const { desk } = await paired();
    await desk.write("build-box, please");
    expect(await desk.ok({ action: "relay_info", relay: "BUILD-BOX" })).toMatchObject({
      relay: "build-box",
      name: "build-box",
      summary: expect.stringMatching(/^relay_info → build-box: /),
    });
    expect(await desk.ok({ action: "relay_info", relay: "build-box.test" })).toMatchObject({
      relay: "build-box",
    });
  });

  it("R-LOCK-01(b): an agent of the other relay writing in a conversation opens that relay there, as an agent unlock", async () => {
    const { fed, desk, box } = await paired();
    await box.pair(desk);
    const target = await promptFromDesk(desk, box);
    expect(await box.stores.unlocks.getRelayUnlock({ conversation: target.id, relay: "desk" })).toMatchObject(
      {
        how: "agent",
      },
    );
    // The agent there can now reply on desk; another conversation of build-box cannot.
    expect(await box.ok({ action: "list_sessions", relay: "desk" }, target.id)).toMatchObject({
      relay: "desk",
    });
    expect(refusal(await box.call({ action: "list_sessions", relay: "desk" })).code).toBe(
      "REMOTE_RELAY_LOCKED",
    );
    expect(fed.requests.map((entry) => `${entry.from}→${entry.to}`)).toEqual([
      "desk→build-box",
      "build-box→desk",
    ]);
  });

  it("R-LOCK-01(b): the sender's relay opens under this relay's name for it, when the two names differ", async () => {
    const { desk, box } = await paired();
    await box.pair(desk, { name: "workstation" });
    const target = await promptFromDesk(desk, box);
    expect(await box.stores.unlocks.listRelayUnlocks(target.id)).toMatchObject([
      { relay: "workstation", how: "agent" },
    ]);
    expect(await box.ok({ action: "usage", relay: "workstation" }, target.id)).toMatchObject({
      relay: "workstation",
    });
  });

  it("§3.1: a host two pairings share is ambiguous; an unknown name is NOT_FOUND", async () => {
    const fed = await createFederation(["desk", "build-box"]);
    const desk = relayOf(fed, "desk");
    const box = relayOf(fed, "build-box");
    await desk.pair(box);
    await desk.pair(box, { name: "box-again" });
    expect(refusal(await desk.call({ action: "usage", relay: "build-box.test" }))).toMatchObject({
      code: "REMOTE_RELAY_INVALID_INPUT",
      error: expect.stringContaining("build-box, box-again"),
    });
    expect(refusal(await desk.call({ action: "usage", relay: "nowhere" })).code).toBe(
      "REMOTE_RELAY_NOT_FOUND",
    );
  });
});
