import { z } from "zod";
import { LIMITS } from "../limits";

// Postgres text and jsonb cannot hold U+0000: a string with one would fail at the database as
// REMOTE_RELAY_INTERNAL, after other writes of the same call. Refusing it here, with the field it
// is in, keeps every surface's answer the same and the database untouched.
export const NUL_CHARACTER_REASON = "contains a NUL character (U+0000), which the relay cannot store";

/** A part of an input the relay refuses before reading it further: where it is and why. */
export interface InputFlaw {
  /** The field the flaw is in (for a name with a NUL, the object holding that name). */
  readonly path: readonly PropertyKey[];
  /** Why, to follow `<field>: ` in the message. */
  readonly reason: string;
}

const NESTING_REASON = `is nested more than ${LIMITS.nestingMax} levels deep; the relay reads at most ${LIMITS.nestingMax} levels of objects and lists`;

/** True when the string holds U+0000 anywhere. */
export function hasNulCharacter(text: string): boolean {
  return text.includes("\u0000");
}

function nameReason(name: string): string {
  // JSON.stringify shows the NUL as \u0000, so the message itself stays storable.
  return `the name ${JSON.stringify(name)} ${NUL_CHARACTER_REASON}`;
}

const INDEX = /^\d+$/;

interface Pending {
  readonly value: unknown;
  readonly path: readonly PropertyKey[];
}

/**
 * The first NUL character (in a value or in a name) or the first object or list nested more than
 * LIMITS.nestingMax levels deep, in any JSON-like value; undefined when there is none. The walk
 * keeps its own stack, so no depth of input can exhaust the call stack, and visits each object
 * once, so a value no JSON parser produces (a cycle, a shared branch) cannot make it loop.
 */
export function findInputFlaw(input: unknown): InputFlaw | undefined {
  const pending: Pending[] = [{ value: input, path: [] }];
  const seen = new Set<object>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    const name = path.at(-1);
    if (typeof name === "string" && hasNulCharacter(name)) {
      return { path: path.slice(0, -1), reason: nameReason(name) };
    }
    if (typeof value === "string") {
      if (hasNulCharacter(value)) {
        return { path, reason: NUL_CHARACTER_REASON };
      }
      continue;
    }
    if (typeof value !== "object" || value === null || seen.has(value)) {
      continue;
    }
    seen.add(value);
    // The root object or list is level 1.
    if (path.length >= LIMITS.nestingMax) {
      return { path: path.slice(0, 1), reason: NESTING_REASON };
    }
    const isList = Array.isArray(value);
    // Pushed in reverse, so the first flaw in input order is the one reported.
    for (const key of Object.keys(value).reverse()) {
      const step = isList && INDEX.test(key) ? Number(key) : key;
      pending.push({ value: (value as Record<string, unknown>)[key], path: [...path, step] });
    }
  }
  return undefined;
}

/**
 * A request body the relay may store: no NUL character in any string or name, and no deeper than
 * LIMITS.nestingMax. The check runs over the whole body before `schema`, so free-form parts
 * (provider settings) and names are covered, and a refused body gets one message naming the field.
 */
export function storableBody<Schema extends z.ZodType>(schema: Schema): z.ZodPipe<z.ZodUnknown, Schema> {
  return z
    .unknown()
    .superRefine((value, ctx) => {
      const flaw = findInputFlaw(value);
      if (flaw) {
        ctx.addIssue({ code: "custom", path: [...flaw.path], message: flaw.reason, input: value });
      }
    })
    .pipe(schema);
}
