import { describe, expect, it } from "vitest";
import { MAX_SCRIPT_SLEEP_MS, parseScript } from "../src/script/directives";

describe("script provider directives (DESIGN §5)", () => {
  it("keeps plain lines for the echo and runs directives in order", () => {
    const plan = parseScript(
      [
        "Check the build.",
        "!sleep 250",
        "  and report  ",
        '!tool {"action":"list_sessions","relay":"this"}',
        "!reply All green.",
        "!ask Merge now? | Merge | Wait",
      ].join("\n"),
    );
    expect(plan).toEqual({
      ok: true,
      value: {
        plainText: "Check the build. and report",
        steps: [
          { kind: "sleep", ms: 250 },
          { kind: "tool", call: { action: "list_sessions", relay: "this" } },
          { kind: "reply", text: "All green." },
          { kind: "ask", question: "Merge now?", options: ["Merge", "Wait"] },
        ],
      },
    });
  });

  it("reads tasks, waits on tasks, subagents and errors", () => {
    const plan = parseScript(
      "!task build :: npm run build && echo done\n!wait-task build\n!subagent scout 1500\n!error disk full",
    );
    expect(plan.ok && plan.value.steps).toEqual([
      { kind: "task", name: "build", command: "npm run build && echo done" },
      { kind: "wait-task", name: "build" },
      { kind: "subagent", name: "scout", ms: 1500 },
      { kind: "error", message: "disk full" },
    ]);
  });

  it("accepts the longest sleep and refuses one millisecond more", () => {
    expect(parseScript(`!sleep ${MAX_SCRIPT_SLEEP_MS}`).ok).toBe(true);
    const tooLong = parseScript(`!sleep ${MAX_SCRIPT_SLEEP_MS + 1}`);
    expect(tooLong.ok).toBe(false);
  });

  it("reports every bad directive with its line, and runs none of them", () => {
    const plan = parseScript(
      "fine\n!sleep soon\n!tool {not json}\n!tool [1]\n!task nocommand\n!launch rockets\n!ask",
    );
    expect(plan.ok).toBe(false);
    if (!plan.ok) {
      expect(plan.error).toHaveLength(6);
      expect(plan.error[0]).toMatch(/^line 2: !sleep takes milliseconds/);
      expect(plan.error[1]).toMatch(/^line 3: !tool takes one JSON object:/);
      expect(plan.error[2]).toMatch(/^line 4: !tool takes one JSON object/);
      expect(plan.error[3]).toMatch(/^line 5: !task needs a name and a command/);
      expect(plan.error[4]).toMatch(/^line 6: unknown directive !launch/);
      expect(plan.error[5]).toMatch(/^line 7: !ask needs a question/);
    }
  });

  it("treats a prompt without directives as plain text", () => {
    expect(parseScript("hello\r\n\r\nworld")).toEqual({
      ok: true,
      value: { steps: [], plainText: "hello world" },
    });
  });
});
