import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ACTIONS, ErrorCodeSchema, ErrorEnvelopeSchema, parseCall } from "../src/index";

// Golden fixtures (STYLE §3): test/fixtures/<action>/<kind>-<case>.json, checked through parseCall.
// The relay and client tests reuse the same files as request bodies.

const FIXTURES = join(import.meta.dirname, "fixtures");
const KINDS = ["valid", "unknown", "invalid"] as const;

const FixtureSchema = z.strictObject({
  input: z.unknown(),
  expect: z.discriminatedUnion("ok", [
    z.strictObject({
      ok: z.literal(true),
      ignored: z.array(z.string()),
      call: z.record(z.string(), z.unknown()).optional(),
      absent: z.array(z.string()).optional(),
    }),
    z.strictObject({
      ok: z.literal(false),
      code: ErrorCodeSchema,
      error: z.string().optional(),
      errorIncludes: z.string().optional(),
    }),
  ]),
});

const folders = readdirSync(FIXTURES).filter((name) => statSync(join(FIXTURES, name)).isDirectory());

function casesOf(folder: string): string[] {
  return readdirSync(join(FIXTURES, folder)).filter((file) => file.endsWith(".json"));
}

describe("golden fixtures", () => {
  it("every folder is an action name (R-OVW-05)", () => {
    const unknown = folders.filter((folder) => !(ACTIONS as readonly string[]).includes(folder));
    expect(unknown).toEqual([]);
  });

  it("every action has a valid, an unknown-arguments and an invalid case", () => {
    const missing = ACTIONS.flatMap((action) => {
      const files = folders.includes(action) ? casesOf(action) : [];
      return KINDS.filter((kind) => !files.some((file) => file.startsWith(`${kind}-`))).map(
        (kind) => `${action}: ${kind}`,
      );
    });
    expect(missing).toEqual([]);
  });

  it("every file name starts with its kind", () => {
    const misnamed = folders.flatMap((folder) =>
      casesOf(folder)
        .filter((file) => !KINDS.some((kind) => file.startsWith(`${kind}-`)))
        .map((file) => `${folder}/${file}`),
    );
    expect(misnamed).toEqual([]);
  });

  for (const folder of folders) {
    describe(folder, () => {
      for (const file of casesOf(folder)) {
        it(file.replace(/\.json$/, ""), () => {
          const fixture = FixtureSchema.parse(JSON.parse(readFileSync(join(FIXTURES, folder, file), "utf8")));
          const result = parseCall(fixture.input);
          const wanted = fixture.expect;
          if (wanted.ok) {
            if (!result.ok) {
              expect.fail(`expected ok, got ${result.envelope.code}: ${result.envelope.error}`);
            }
            expect(result.call.action).toBe(folder);
            expect(result.ignored).toEqual(wanted.ignored);
            expect(result.call).toMatchObject(wanted.call ?? {});
            for (const key of wanted.absent ?? []) {
              expect(result.call).not.toHaveProperty(key);
            }
            return;
          }
          if (result.ok) {
            expect.fail(`expected ${wanted.code}, got ok with ${JSON.stringify(result.call)}`);
          }
          expect(ErrorEnvelopeSchema.safeParse(result.envelope).success).toBe(true);
          expect(result.envelope.code).toBe(wanted.code);
          if (wanted.error !== undefined) {
            expect(result.envelope.error).toBe(wanted.error);
          }
          if (wanted.errorIncludes !== undefined) {
            expect(result.envelope.error).toContain(wanted.errorIncludes);
          }
        });
      }
    });
  }
});
