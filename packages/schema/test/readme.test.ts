import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type ErrorEnvelope,
  errorEnvelope,
  LIMITS,
  type OkEnvelopeBase,
  okEnvelope,
  parseCall,
  relayToolInputJsonSchema,
} from "../src/index";

const README = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");

describe("README", () => {
  it("GAP-20: the limits table lists every LIMITS key with its value", () => {
    const rows = new Map(
      README.split("\n")
        .filter((line) => line.startsWith("|"))
        .map((line) => line.split("|").map((cell) => cell.trim()))
        .map((cells) => [cells[1] ?? "", cells[2] ?? ""]),
    );
    const missing = Object.entries(LIMITS)
      .filter(([key, value]) => rows.get(`\`${key}\``) !== String(value))
      .map(([key]) => key);
    expect(missing).toEqual([]);
  });

  it("says what it may import", () => {
    expect(README).toContain("May import: zod only.");
  });

  it("the usage snippet runs", () => {
    const replies: Array<OkEnvelopeBase | ErrorEnvelope> = [];
    const reply = (envelope: OkEnvelopeBase | ErrorEnvelope) => replies.push(envelope);

    const tool = { name: "relay_tool", inputSchema: relayToolInputJsonSchema };
    const parsed = parseCall({ action: "read_session", relay: "this", session: "3f9c2a1e", verbose: true });
    if (!parsed.ok) {
      reply(parsed.envelope);
    } else if (parsed.call.action === "read_session") {
      expect(parsed.call.last).toBe(20);
      reply(
        okEnvelope(
          {
            relay: "desk",
            summary: "read_session → desk session 3f9c2a1e: 5 messages",
            ignored: parsed.ignored,
          },
          {},
        ),
      );
    }
    reply(
      errorEnvelope("REMOTE_RELAY_BUSY", "The session cannot move to another folder now: a turn is running."),
    );

    expect(tool.inputSchema.type).toBe("object");
    expect(replies[0]).toMatchObject({ ok: true, ignored: ["verbose"] });
    expect(replies[1]).toMatchObject({ ok: false, code: "REMOTE_RELAY_BUSY" });
  });
});
