import type { z } from "zod";
import { NON_BLANK } from "../args/text";
import { describeKind, describeValue } from "./describe-value";

type RawIssue = z.core.$ZodRawIssue;

/** `quiet_hours.tz`, `sessions[1]`: the field as the agent wrote it. */
export function fieldName(path: readonly PropertyKey[] | undefined): string {
  if (!path || path.length === 0) {
    return "the call";
  }
  return path
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`))
    .join("");
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

function got(input: unknown): string {
  return typeof input === "number" || typeof input === "bigint" ? describeValue(input) : describeKind(input);
}

function lengthOf(input: unknown): number | undefined {
  return typeof input === "string" || Array.isArray(input) ? input.length : undefined;
}

function bound(issue: RawIssue & { code: "too_big" | "too_small" }, field: string): string {
  const big = issue.code === "too_big";
  const limit = big ? issue.maximum : issue.minimum;
  const length = lengthOf(issue.input);
  if (issue.origin === "string") {
    if (!big && Number(limit) === 1) {
      return `${field} must not be empty`;
    }
    return `${field} must be at ${big ? "most" : "least"} ${String(limit)} characters (got ${length})`;
  }
  if (issue.origin === "array") {
    return `${field} takes at ${big ? "most" : "least"} ${String(limit)} entries (got ${length})`;
  }
  const word = big
    ? issue.inclusive === false
      ? "less than"
      : "at most"
    : issue.inclusive === false
      ? "more than"
      : "at least";
  return `${field} must be ${word} ${String(limit)} (got ${describeValue(issue.input)})`;
}

/**
 * The default wording of a failed check: the field and why, never zod's raw text. Schemas that
 * need an exact sentence (R-FEW-16, R-FEW-19 …) set their own message, which wins over this map.
 */
export function formatIssue(issue: RawIssue): string {
  const field = fieldName(issue.path);
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) {
        return `${field} is required`;
      }
      return `${field} must be ${EXPECTED[issue.expected] ?? issue.expected} (got ${got(issue.input)})`;
    case "too_big":
    case "too_small":
      return bound(issue, field);
    case "invalid_value":
      return `${field} must be ${issue.values.length === 1 ? "" : "one of "}${issue.values.map(String).join(", ")} (got ${describeValue(issue.input)})`;
    case "invalid_format":
      if (issue.format === "regex" && issue.pattern === String(NON_BLANK)) {
        return `${field} must not be blank`;
      }
      return `${field} is not in the expected format (got ${describeValue(issue.input)})`;
    case "unrecognized_keys":
      return `${field} does not take: ${issue.keys.join(", ")}`;
    case "custom":
      return issue.message ?? `${field} is not valid`;
    default:
      return `${field} is not valid (got ${describeValue(issue.input)})`;
  }
}
