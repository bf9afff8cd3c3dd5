import { describe, expect, it } from "vitest";
import { evaluateCall, findMentionedRelays, loopCounterAfter } from "../src";

// The README's usage block, run as written (imports from "../src" instead of "@oar/permissions").
describe("README usage", () => {
  it("runs as the README shows", () => {
    // The owner wrote a message: unlock the relays it mentions (R-LOCK-01(a)).
    const mentioned = findMentionedRelays("Ask build-box, not `desk`.", [
      { name: "build-box", host: "build-box.example.com" },
      { name: "desk", host: "desk.lan" },
    ]);
    expect(mentioned).toEqual(["build-box"]);

    // The conversation's agent calls send on build-box while the conversation is in ask mode.
    const decision = evaluateCall({
      action: "send",
      session: "ses_3f9c2a1e7b04",
      caller: {
        session: "ses_caller",
        mode: "ask",
        inTurn: true,
        startedByAgent: false,
        mayCreateSessions: false,
        turnHops: 0,
      },
      relay: { kind: "paired", name: "build-box", level: "full", unlock: "mention" },
      promptsSinceOwnerWrote: 3,
    });
    expect(decision).toMatchObject({ kind: "ask", cards: [{ kind: "write_in_mode", covers: "call" }] });

    // Once it ran: count it for the anti-loop guard.
    expect(loopCounterAfter(3, { kind: "call", call: { action: "send" } })).toBe(4);
  });
});
