import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ACTIONS,
  actionArgumentNames,
  ErrorEnvelopeSchema,
  LIMITS,
  type ParsedCall,
  parseCall,
} from "../src/index";
import { BASE } from "./support/base-calls";

const STRICT = new Set(["create_session", "update_session"]);

// R-CALL-09 as the spec states it: exactly null, "", false and [] are empty; an object never is.
const isEmpty = (value: unknown): boolean =>
  value === null || value === "" || value === false || (Array.isArray(value) && value.length === 0);

function wellFormed(result: ParsedCall): void {
  expect(() => JSON.stringify(result)).not.toThrow();
  if (result.ok) {
    expect(ACTIONS).toContain(result.call.action);
    expect(result.ignored.length).toBeLessThanOrEqual(LIMITS.ignoredMax);
    return;
  }
  const parsed = ErrorEnvelopeSchema.safeParse(result.envelope);
  expect(parsed.success, JSON.stringify(result.envelope)).toBe(true);
  expect(result.envelope.error.length).toBeGreaterThan(0);
  expect(result.envelope.ignored?.length ?? 0).toBeLessThanOrEqual(LIMITS.ignoredMax);
}

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withTypedArray: true,
  withSparseArray: true,
  withUnicodeString: true,
});

const action = fc.constantFrom(...ACTIONS);

/** Any action, with any of its own argument names and any extra keys, all holding any value. */
const noisyCall = action.chain((name) =>
  fc
    .tuple(
      fc.dictionary(fc.constantFrom(...actionArgumentNames(name), "action"), anything, { maxKeys: 12 }),
      fc.dictionary(fc.string(), fc.oneof(anything, fc.jsonValue()), { maxKeys: 30 }),
    )
    .map(([known, extra]) => ({ ...extra, ...known, action: name })),
);

describe("parseCall never throws (R-CALL-02, R-CALL-04)", () => {
  it("R-CALL-04: for fc.anything(), it returns a well-formed result", () => {
    fc.assert(
      fc.property(anything, (input) => {
        wellFormed(parseCall(input));
      }),
      { numRuns: 2000 },
    );
  });

  it("R-CALL-04: for any JSON value, a refusal is REMOTE_RELAY_INVALID_INPUT", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        const result = parseCall(input);
        wellFormed(result);
        if (!result.ok) {
          expect(result.envelope.code).toBe("REMOTE_RELAY_INVALID_INPUT");
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("R-CALL-08: a valid action with random arguments and random extra keys gives a well-formed result", () => {
    fc.assert(
      fc.property(noisyCall, (input) => {
        wellFormed(parseCall(input));
      }),
      { numRuns: 1000 },
    );
  });

  it("R-CALL-07/08/09: extra keys are refused (create/update), listed in order up to 20, or skipped when empty", () => {
    const extras = fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue(), { maxKeys: 40 });
    fc.assert(
      fc.property(action, extras, (name, extra) => {
        const known = new Set([...actionArgumentNames(name), "action"]);
        const input: Record<string, unknown> = { ...extra, ...BASE[name], action: name };
        const expected = Object.keys(input).filter((key) => !known.has(key) && !isEmpty(input[key]));
        const result = parseCall(input);
        wellFormed(result);
        if (STRICT.has(name) && expected.length > 0) {
          expect(result.ok).toBe(false);
          expect(!result.ok && result.envelope.error).toMatch(new RegExp(`^${name} does not take: `));
          return;
        }
        expect(result.ok, JSON.stringify(result)).toBe(true);
        if (result.ok) {
          expect(result.ignored).toEqual(
            expected
              .slice(0, LIMITS.ignoredMax)
              .map((key) => (key.length > 100 ? `${key.slice(0, 100)}…` : key)),
          );
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("inputs no JSON parser produces", () => {
  it("R-CALL-04: a cyclic value is ignored like any unknown argument, without INTERNAL", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const ignoredOnly = parseCall({ action: "list_relays", cyclic });
    expect(ignoredOnly).toEqual({ ok: true, call: { action: "list_relays" }, ignored: ["cyclic"] });
    const refused = parseCall({ action: "subscribe", sessions: ["all"], quiet_hours: cyclic });
    wellFormed(refused);
    expect(!refused.ok && refused.envelope.code).toBe("REMOTE_RELAY_INVALID_INPUT");
  });

  it("R-CALL-04: a value nested 10,000 deep is refused by its depth, without exhausting the stack", () => {
    let deep: unknown = { leaf: "x" };
    for (let level = 0; level < 10_000; level += 1) {
      deep = { next: deep };
    }
    const result = parseCall({ action: "list_relays", deep });
    wellFormed(result);
    expect(!result.ok && result.envelope.error).toBe(
      `deep: is nested more than ${LIMITS.nestingMax} levels deep; the relay reads at most ${LIMITS.nestingMax} levels of objects and lists`,
    );
  });

  it("a getter that throws gives REMOTE_RELAY_INVALID_INPUT instead of an exception", () => {
    const input = Object.defineProperty({ action: "list_relays" }, "boom", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    const result = parseCall(input);
    wellFormed(result);
    expect(!result.ok && result.envelope.code).toBe("REMOTE_RELAY_INVALID_INPUT");
  });
});
