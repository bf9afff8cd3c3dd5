import { z } from "zod";
import { LIMITS } from "../limits";
import { ModeSchema } from "../vocabulary";
import { NON_BLANK, nonBlankString } from "./text";

// One definition per argument name, so an argument means the same in every action that takes it
// and the combined JSON Schema describes it once.

const RELAY_DESCRIPTION =
  "The relay to work on: \"this\" (or this relay's own name) or a paired relay's name or host, as list_relays shows them.";
const RELAY_REQUIRED =
  'relay is required: "this" for this relay, or a paired relay\'s name or host from list_relays';

/** Required `relay` (R-RLY-01, R-RLY-06); the message says what to pass. */
export const relayArg = z
  .string({ error: (issue) => (issue.input === undefined ? RELAY_REQUIRED : undefined) })
  .min(1)
  .max(LIMITS.relayMaxChars)
  .regex(NON_BLANK)
  .meta({ description: RELAY_DESCRIPTION });

/** `relay` of the subscription, schedule and question actions: defaults to "this" (R-RLY-04). */
export const thisRelayArg = nonBlankString(LIMITS.relayMaxChars)
  .meta({ description: RELAY_DESCRIPTION })
  .default("this");

/** A session id, as list_sessions shows it. */
export const sessionArg = nonBlankString(LIMITS.idMaxChars).meta({
  description: "Id of the session (as list_sessions shows it).",
});

/** An opaque id returned by an earlier call (message, task, question, schedule, subscription). */
export function idArg(description: string): z.ZodString {
  return nonBlankString(LIMITS.idMaxChars).meta({ description });
}

export const questionIdArg = idArg(
  "Id of the question: for answer_question, a card a session waits on (pendingQuestions of kind ask_user in read_session); for withdraw, a non-blocking question this conversation asked.",
);

export const textArg = nonBlankString(LIMITS.textMaxChars).meta({
  description:
    "The prompt to queue. For create_session it must be self-contained: the new session knows nothing of this conversation.",
});

export const titleArg = nonBlankString(LIMITS.titleMaxChars).meta({
  description: "Title of the session (create_session, update_session) or of the schedule (schedule).",
});

export const providerArg = nonBlankString(LIMITS.nameMaxChars).meta({
  description:
    'Provider id as relay_info lists it (e.g. "claude", "claude-cloud"). In send it switches a Claude session\'s billing (R-BILL-01).',
});

export const modelArg = nonBlankString(LIMITS.nameMaxChars).meta({
  description: "Model id from the provider's list in relay_info; checked before anything is sent or created.",
});

export const effortArg = nonBlankString(LIMITS.effortMaxChars).meta({
  description: "Reasoning effort, one of the provider's efforts in relay_info.",
});

export const modeArg = ModeSchema.meta({
  description: "Relay mode for the session's turns: agent, ask or plan.",
});

export const cwdArg = nonBlankString(LIMITS.cwdMaxChars).meta({
  description: "Working folder on the target relay; it must be one the relay may use.",
});

export const groupArg = nonBlankString(LIMITS.nameMaxChars).meta({
  description:
    'Session group id or name (case-insensitive), as relay_info lists it. create_session: an existing group. update_session: an existing group, a new name (creates the group), or "none" to take the session out of its group.',
});

/**
 * `wait_seconds` (GAP-05): 0 means do not wait. No upper bound here on purpose: the relay caps a
 * longer wait at its own limit and says so in `note` (R-WST-03).
 */
export const waitSecondsArg = z
  .number()
  .int()
  .min(0)
  .meta({
    description: `Seconds to wait for the reply; 0 = do not wait. Default ${LIMITS.waitSecondsDefault}. Longer than the relay's limit (list_relays limits.maxWaitSeconds) is capped, with a note.`,
  })
  .default(LIMITS.waitSecondsDefault);

/** Whole minutes between 1 and max. */
export function minutesArg(max: number, description: string): z.ZodNumber {
  return z.number().int().min(1).max(max).meta({ description });
}

/** A list of non-blank strings of at most maxEntries entries. */
export function stringListArg(options: {
  maxEntries: number;
  maxChars: number;
  description: string;
}): z.ZodArray<z.ZodString> {
  return z
    .array(nonBlankString(options.maxChars))
    .min(1)
    .max(options.maxEntries)
    .meta({ description: options.description });
}
