import { describe, expect, it } from "vitest";
import type { LogLevel } from "../src/config";
import { createRelayLogger } from "../src/logging/relay-logger";

/** A logger whose lines are kept, parsed when JSON. */
function capture(level: LogLevel, pretty = false) {
  const lines: string[] = [];
  const logger = createRelayLogger(
    { logLevel: level, name: "desk" },
    { pretty, destination: { write: (line: string) => lines.push(line) } },
  );
  return { logger, lines, json: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe("the relay's log (pino, DESIGN §10)", () => {
  it("writes one JSON line per entry off a terminal: pino's numeric level, ISO time, the relay, the message and its fields", () => {
    const { logger, json } = capture("info");
    logger.info("turn ended", { turn: "trn_1", durationMs: 12 });
    logger.error("request failed", { requestId: "req_1" });
    const [info, error] = json();
    expect(info).toMatchObject({
      level: 30,
      relay: "desk",
      msg: "turn ended",
      turn: "trn_1",
      durationMs: 12,
    });
    expect(typeof info?.pid).toBe("number");
    expect(String(info?.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The soak benchmark counts lines at 50 and above as the relay's bugs.
    expect(error).toMatchObject({ level: 50, msg: "request failed", requestId: "req_1" });
  });

  it("writes nothing below RELAY_LOG_LEVEL, and nothing at all when silent", () => {
    const warn = capture("warn");
    warn.logger.debug("d");
    warn.logger.info("i");
    warn.logger.warn("w");
    warn.logger.error("e");
    expect(warn.json().map((line) => [line.level, line.msg])).toEqual([
      [40, "w"],
      [50, "e"],
    ]);
    const debug = capture("debug");
    debug.logger.debug("d");
    expect(debug.json().map((line) => line.msg)).toEqual(["d"]);
    const silent = capture("silent");
    silent.logger.error("e");
    expect(silent.lines).toEqual([]);
  });

  it("an error keeps its stack and its causes, at whatever field it is given", () => {
    const { logger, json } = capture("info");
    const cause = new Error("connection refused");
    logger.error("relay_tool call failed", { error: new Error("query failed", { cause }) });
    const [line] = json();
    expect(line?.error).toMatchObject({
      type: "Error",
      message: "query failed",
      stack: expect.stringContaining("query failed"),
      cause: { type: "Error", message: "connection refused", stack: expect.stringContaining("connection") },
    });
  });

  it("censors tokens, keys and Authorization headers whatever the level, at the top and one level down", () => {
    const { logger, lines, json } = capture("debug");
    logger.debug("a request", {
      headers: { authorization: "Bearer owner-secret-1", cookie: "s=cookie-secret-2" },
      token: "agent-secret-3",
      settings: { apiKey: "sk-secret-4", model: "m" },
      Authorization: "Bearer owner-secret-5",
    });
    const text = lines.join("");
    for (const secret of [
      "owner-secret-1",
      "cookie-secret-2",
      "agent-secret-3",
      "sk-secret-4",
      "owner-secret-5",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(json()[0]).toMatchObject({
      headers: { authorization: "[redacted]", cookie: "[redacted]" },
      token: "[redacted]",
      settings: { apiKey: "[redacted]", model: "m" },
    });
  });

  it("on a terminal, readable lines: the time, the level's name, the message and the fields on one line", () => {
    const { logger, lines } = capture("info", true);
    logger.warn("The database does not answer", { turn: "trn_7" });
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: The database does not answer/);
    expect(line).toContain('"turn":"trn_7"');
    expect(line).not.toContain('"pid"');
    expect(line?.endsWith("\n")).toBe(true);
  });
});
