import { describe, expect, it } from "vitest";
import { ACTIONS, type Action, actionJsonSchemas, LIMITS, parseCall } from "../src/index";
import { BASE } from "./support/base-calls";

type Property = {
  type?: string;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  items?: Property;
  enum?: unknown[];
};

function probe(action: Action, field: string, value: unknown) {
  return parseCall({ action, ...BASE[action], [field]: value });
}

function expectOk(action: Action, field: string, value: unknown): void {
  const result = probe(action, field, value);
  expect(result.ok ? "ok" : result.envelope.error, `${action}.${field}`).toBe("ok");
}

function expectError(action: Action, field: string, value: unknown, message: string): void {
  const result = probe(action, field, value);
  expect(result.ok ? "ok" : result.envelope.error, `${action}.${field}`).toBe(message);
}

const properties = (action: Action) =>
  Object.entries((actionJsonSchemas[action].properties ?? {}) as Record<string, Property>).filter(
    ([name]) => name !== "action",
  );

const SAFE = Number.MAX_SAFE_INTEGER;

describe("every bound, at its edge (derived from the argument schemas)", () => {
  it("base calls are valid", () => {
    for (const action of ACTIONS) {
      expect(parseCall({ action, ...BASE[action] }).ok, action).toBe(true);
    }
  });

  for (const action of ACTIONS) {
    for (const [field, property] of properties(action)) {
      if (property.type === "integer" && property.minimum !== undefined) {
        const { minimum, maximum } = property;
        it(`${action}.${field}: ${minimum} ok, ${minimum - 1} refused`, () => {
          expectOk(action, field, minimum);
          expectError(
            action,
            field,
            minimum - 1,
            `${field} must be at least ${minimum} (got ${minimum - 1})`,
          );
        });
        if (maximum !== undefined && maximum < SAFE) {
          it(`${action}.${field}: ${maximum} ok, ${maximum + 1} refused`, () => {
            expectOk(action, field, maximum);
            expectError(
              action,
              field,
              maximum + 1,
              `${field} must be at most ${maximum} (got ${maximum + 1})`,
            );
          });
        }
      }
      if (property.type === "string" && property.maxLength !== undefined) {
        const max = property.maxLength;
        it(`${action}.${field}: ${max} characters ok, ${max + 1} refused, blank refused`, () => {
          expectOk(action, field, "a".repeat(max));
          expectError(
            action,
            field,
            "a".repeat(max + 1),
            `${field} must be at most ${max} characters (got ${max + 1})`,
          );
          expectError(action, field, "   ", `${field} must not be blank`);
        });
      }
      if (
        property.type === "array" &&
        property.maxItems !== undefined &&
        property.items?.type === "string" &&
        !property.items.enum
      ) {
        const max = property.maxItems;
        const itemMax = property.items.maxLength;
        const distinct = (count: number) => Array.from({ length: count }, (_, index) => `id_${index}`);
        it(`${action}.${field}: ${max} entries ok, ${max + 1} refused`, () => {
          expectOk(action, field, distinct(max));
          expectError(
            action,
            field,
            distinct(max + 1),
            `${field} takes at most ${max} entries (got ${max + 1})`,
          );
        });
        if (itemMax !== undefined) {
          it(`${action}.${field}[]: ${itemMax} characters ok, ${itemMax + 1} refused`, () => {
            expectOk(action, field, ["a".repeat(itemMax)]);
            expectError(
              action,
              field,
              ["a".repeat(itemMax + 1)],
              `${field}[0] must be at most ${itemMax} characters (got ${itemMax + 1})`,
            );
          });
        }
      }
    }
  }
});

describe("named bounds", () => {
  it("GAP-05: lines 500 ok, 501 refused", () => {
    expectOk("read_task_output", "lines", 500);
    expectError("read_task_output", "lines", 501, "lines must be at most 500 (got 501)");
  });

  it("GAP-05: last 1..200 (200 chosen: the spec gives only the default 20)", () => {
    expectOk("read_session", "last", LIMITS.lastMax);
    expectError("read_session", "last", 201, "last must be at most 200 (got 201)");
    expectError("read_session", "last", 0, "last must be at least 1 (got 0)");
  });

  it("GAP-05/R-WST-07: wait_seconds 0 ok, -1 refused, no upper bound here", () => {
    expectOk("send", "wait_seconds", 0);
    expectOk("send", "wait_seconds", 3_600_000);
    expectError("send", "wait_seconds", -1, "wait_seconds must be at least 0 (got -1)");
  });

  it("GAP-11: digest_minutes 1440 ok, 1441 refused; 1 ok, 0 refused", () => {
    expectOk("subscribe", "digest_minutes", 1440);
    expectError("subscribe", "digest_minutes", 1441, "digest_minutes must be at most 1440 (got 1441)");
    expectOk("subscribe", "digest_minutes", 1);
    expectError("subscribe", "digest_minutes", 0, "digest_minutes must be at least 1 (got 0)");
  });

  it("GAP-18: every_minutes 1 and 525600 ok, 0 and 525601 refused, fractions refused", () => {
    expectOk("schedule", "every_minutes", 1);
    expectOk("schedule", "every_minutes", 525_600);
    expectError("schedule", "every_minutes", 0, "every_minutes must be at least 1 (got 0)");
    expectError("schedule", "every_minutes", 525_601, "every_minutes must be at most 525600 (got 525601)");
    expectError("schedule", "every_minutes", 1.5, "every_minutes must be a whole number (got 1.5)");
  });

  it("GAP-11: stalled_minutes and heartbeat_minutes 1..1440", () => {
    for (const field of ["stalled_minutes", "heartbeat_minutes"]) {
      expectOk("subscribe", field, 1440);
      expectError("subscribe", field, 1441, `${field} must be at most 1440 (got 1441)`);
    }
  });

  it("R-UPD-08: auto_compact_window 0..10000000 or auto", () => {
    expectOk("update_session", "auto_compact_window", LIMITS.autoCompactWindowMax);
    expectError(
      "update_session",
      "auto_compact_window",
      LIMITS.autoCompactWindowMax + 1,
      "auto_compact_window must be at most 10000000 (got 10000001)",
    );
    expectError(
      "update_session",
      "auto_compact_window",
      -1,
      "auto_compact_window must be at least 0 (got -1)",
    );
  });

  it("GAP-11: events takes each of the 10 subscribable events at most once per name list", () => {
    const all = [
      "turn_end",
      "error",
      "question_asked",
      "question_answered",
      "subagent_finished",
      "task_started",
      "task_finished",
      "task_failed",
      "stalled",
      "all_idle",
    ];
    expectOk("subscribe", "events", all);
    expectError("subscribe", "events", [...all, "error"], "events takes at most 10 entries (got 11)");
    expectError(
      "subscribe",
      "events",
      ["heartbeat"],
      'events[0] must be one of turn_end, error, question_asked, question_answered, subagent_finished, task_started, task_finished, task_failed, stalled, all_idle (got "heartbeat")',
    );
  });

  it("numbers that JSON cannot carry are refused, not crashed on", () => {
    expectError("read_session", "last", Number.NaN, "last must be a number (got NaN)");
    expectError("read_session", "last", Number.POSITIVE_INFINITY, "last must be a number (got Infinity)");
    expectError("read_session", "last", 2 ** 60, "last must be at most 200 (got 1152921504606847000)");
  });
});
