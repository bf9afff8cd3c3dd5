import type { z } from "zod";
import { ACTIONS, type Action } from "../actions/action-names";
import { actionArgumentNames, type RelayToolCall, RelayToolCallSchema } from "../actions/registry";
import { errorEnvelope } from "../envelope/builders";
import type { ErrorEnvelope } from "../envelope/envelopes";
import { findInputFlaw } from "../input/storable-input";
import { describeKind, describeValue } from "./describe-value";
import { isPlainRecord, presentArguments, withEmptyPartsDropped } from "./empty";
import { fieldName, formatIssue } from "./format-issue";
import { ignoredNames, isStrictAction, unknownArgumentsMessage } from "./unknown-arguments";

export type ParsedCall =
  | { ok: true; call: RelayToolCall; ignored: string[] }
  | { ok: false; envelope: ErrorEnvelope };

const ACTION_LIST = ACTIONS.join(", ");
const MESSAGES_SHOWN = 10;

function invalid(error: string, ignored: string[] = []): ParsedCall {
  return { ok: false, envelope: errorEnvelope("REMOTE_RELAY_INVALID_INPUT", error, { ignored }) };
}

const squash = (name: string): string => name.toLowerCase().replace(/[^a-z]/g, "");

function unknownActionMessage(action: unknown): string {
  if (typeof action !== "string") {
    return `action must be a string, one of: ${ACTION_LIST} (got ${describeKind(action)})`;
  }
  const near = ACTIONS.find((name) => squash(name) === squash(action));
  const hint = near ? ` Did you mean ${near}?` : "";
  return `Unknown action ${describeValue(action)}.${hint} Valid actions: ${ACTION_LIST}.`;
}

function isAction(value: unknown): value is Action {
  return typeof value === "string" && (ACTIONS as readonly string[]).includes(value);
}

// zod adds a safe-integer range check to every int; next to the argument's own bound it only
// repeats the point with a number nobody chose.
function isSafeRangeIssue(issue: z.core.$ZodIssue): boolean {
  return (
    (issue.code === "too_big" && Number(issue.maximum) === Number.MAX_SAFE_INTEGER) ||
    (issue.code === "too_small" && Number(issue.minimum) === Number.MIN_SAFE_INTEGER)
  );
}

const pathKey = (issue: z.core.$ZodIssue): string => issue.path.map(String).join(".");
const samePath = (a: z.core.$ZodIssue, b: z.core.$ZodIssue): boolean => pathKey(a) === pathKey(b);

function issuesMessage(issues: readonly z.core.$ZodIssue[]): string {
  const relevant = issues.filter(
    (issue) => !isSafeRangeIssue(issue) || !issues.some((other) => other !== issue && samePath(other, issue)),
  );
  const messages = [...new Set(relevant.map((issue) => issue.message))];
  const more = messages.length > MESSAGES_SHOWN ? `; and ${messages.length - MESSAGES_SHOWN} more` : "";
  return `${messages.slice(0, MESSAGES_SHOWN).join("; ")}${more}`;
}

function parse(input: unknown): ParsedCall {
  if (!isPlainRecord(input)) {
    return invalid(
      `relay_tool takes a JSON object with an action (got ${describeKind(input)}). Actions: ${ACTION_LIST}.`,
    );
  }
  // Before anything else reads it: a NUL or an absurd depth is refused whatever argument holds it.
  const flaw = findInputFlaw(input);
  if (flaw) {
    return invalid(`${fieldName(flaw.path)}: ${flaw.reason}`);
  }
  const present = presentArguments(input);
  const action = present.find(([key]) => key === "action")?.[1];
  if (action === undefined) {
    return invalid(`action is required: one of ${ACTION_LIST}.`);
  }
  if (!isAction(action)) {
    return invalid(unknownActionMessage(action));
  }

  const known = new Set(actionArgumentNames(action));
  const args = withEmptyPartsDropped(present, known);
  const unknown = args.map(([key]) => key).filter((key) => key !== "action" && !known.has(key));
  if (unknown.length > 0 && isStrictAction(action)) {
    return invalid(unknownArgumentsMessage(action, unknown));
  }
  const ignored = ignoredNames(unknown);

  const candidate = Object.fromEntries(args.filter(([key]) => key === "action" || known.has(key)));
  const parsed = RelayToolCallSchema.safeParse(candidate, {
    reportInput: true,
    error: (issue) => formatIssue(issue),
  });
  if (!parsed.success) {
    return invalid(issuesMessage(parsed.error.issues), ignored);
  }
  return { ok: true, call: parsed.data, ignored };
}

/**
 * THE call rules (spec §7), used by every entry point (MCP, /v1/tool, peers): reads any input,
 * applies R-CALL-06 … R-CALL-09 and the argument schemas, and never throws.
 */
export function parseCall(input: unknown): ParsedCall {
  try {
    return parse(input);
  } catch (error) {
    // Only a value no JSON parser produces (a throwing getter, a revoked proxy) gets here.
    let reason = "unreadable input";
    try {
      reason = error instanceof Error ? error.message : String(error);
    } catch {
      // keep the generic reason
    }
    return {
      ok: false,
      envelope: errorEnvelope(
        "REMOTE_RELAY_INVALID_INPUT",
        `relay_tool could not read this call: ${reason || "unknown error"}`,
      ),
    };
  }
}
