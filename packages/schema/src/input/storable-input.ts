import { z } from "zod";
import { LIMITS } from "../limits";

// Postgres text and jsonb cannot hold U+0000: a string with one would fail at the database as
// REMOTE_RELAY_INTERNAL, after other writes of the same call. Refusing it here, with the field it
// is in, keeps every surface's answer the same and the database untouched.
export const NUL_CHARACTER_REASON = "contains a NUL character (U+0000), which the relay cannot store";

// A lone UTF-16 surrogate (JSON "\ud800") has no UTF-8 form: jsonb refuses it as a database error
// and text columns would silently store U+FFFD instead. A pair (an emoji) is fine.
export const LONE_SURROGATE_REASON =
  "contains a lone surrogate (U+D800 to U+DFFF), which is not valid Unicode and the relay cannot store";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A part of an input the relay refuses before reading it further: where it is and why. */
export interface InputFlaw {
  /** The field the flaw is in (for a name it cannot store, the object holding that name). */
  readonly path: readonly PropertyKey[];
  /** Why, to follow `<field>: ` in the message. */
  readonly reason: string;
}

const NESTING_REASON = `is nested more than ${LIMITS.nestingMax} levels deep; the relay reads at most ${LIMITS.nestingMax} levels of objects and lists`;

/** True when the string holds U+0000 anywhere. */
export function hasNulCharacter(text: string): boolean {
  return text.includes("\u0000");
}

/** Why the relay cannot store this string (a NUL, a lone surrogate), or undefined when it can. */
export function unstorableTextReason(text: string): string | undefined {
  if (hasNulCharacter(text)) {
    return NUL_CHARACTER_REASON;
  }
  return LONE_SURROGATE.test(text) ? LONE_SURROGATE_REASON : undefined;
}

const INDEX = /^\d+$/;

interface Pending {
  readonly value: unknown;
  readonly path: readonly PropertyKey[];
}

/**
 * The first string the relay cannot store (a NUL or a lone surrogate, in a value or in a name) or
 * the first object or list nested more than LIMITS.nestingMax levels deep, in any JSON-like value;
 * undefined when there is none. The walk keeps its own stack, so no depth of input can exhaust the
 * call stack, and visits each object once, so a value no JSON parser produces (a cycle, a shared
 * branch) cannot make it loop.
 */
export function findInputFlaw(input: unknown): InputFlaw | undefined {
  const pending: Pending[] = [{ value: input, path: [] }];
  const seen = new Set<object>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    const name = path.at(-1);
    const nameReason = typeof name === "string" ? unstorableTextReason(name) : undefined;
    if (nameReason !== undefined) {
      // JSON.stringify shows the character as \u0000 or \ud800, so the message stays storable.
      return { path: path.slice(0, -1), reason: `the name ${JSON.stringify(name)} ${nameReason}` };
    }
    if (typeof value === "string") {
      const reason = unstorableTextReason(value);
      if (reason !== undefined) {
        return { path, reason };
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
 * A request body the relay may store: no NUL or lone surrogate in any string or name, and no deeper
 * than LIMITS.nestingMax. The check runs over the whole body before `schema`, so free-form parts
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
