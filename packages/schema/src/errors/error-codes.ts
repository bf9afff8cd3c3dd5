import { z } from "zod";

/** Every code the relay puts in `code` of a failed call (spec §37, DESIGN GAP-20/21). */
export const ErrorCodeSchema = z.enum([
  "REMOTE_RELAY_INVALID_INPUT",
  "REMOTE_RELAY_NOT_FOUND",
  "REMOTE_RELAY_UNSUPPORTED",
  "REMOTE_RELAY_PROVIDER_UNAVAILABLE",
  "REMOTE_RELAY_UNKNOWN_MODEL",
  "REMOTE_RELAY_UNKNOWN_GROUP",
  "REMOTE_RELAY_PERMISSION",
  "REMOTE_RELAY_NO_ACTIVE_TURN",
  "REMOTE_RELAY_BUSY",
  "REMOTE_RELAY_FORBIDDEN",
  "REMOTE_RELAY_SCHEDULE_LIMIT",
  "REMOTE_RELAY_QUESTION_LIMIT",
  "REMOTE_RELAY_LOCKED",
  "REMOTE_RELAY_LIMIT",
  "REMOTE_RELAY_HOP_LIMIT",
  "REMOTE_RELAY_SELF",
  "REMOTE_RELAY_UNREACHABLE",
  "REMOTE_RELAY_AUTH",
  "REMOTE_RELAY_UNAVAILABLE",
  "REMOTE_RELAY_INTERNAL",
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

/** One meaning per code, so an agent (and the engine's authors) can act on it. */
export const errorCodeMeanings: Record<ErrorCode, string> = {
  REMOTE_RELAY_INVALID_INPUT:
    "A bad argument value, a missing required argument, an unknown action, or an argument that create_session/update_session does not take. The message names the field and why. Nothing was done.",
  REMOTE_RELAY_NOT_FOUND:
    "The session, task, question, schedule or subscription named does not exist (a task is kept 1 hour after it ends).",
  REMOTE_RELAY_UNSUPPORTED:
    "The target relay runs an OAR too old for this feature, or a schedule action named a paired relay (schedules live on this relay only).",
  REMOTE_RELAY_PROVIDER_UNAVAILABLE:
    "The provider or billing asked for is not configured on the target relay, or its cap is reached; remoteCode carries the relay's own code.",
  REMOTE_RELAY_UNKNOWN_MODEL:
    "The model is not in the target relay's list for that provider; suggestions and models list the close matches and the valid ids. Nothing was sent or created.",
  REMOTE_RELAY_UNKNOWN_GROUP:
    "No session group with that id or name on the target, or the name matches several groups (pass the id); groups lists the groups there.",
  REMOTE_RELAY_PERMISSION:
    "Not allowed: the user chose Deny (or the card expired), agent sessions are disabled, the pairing's Agents may level is too low, or the target does not accept prompts from other relays' agents.",
  REMOTE_RELAY_NO_ACTIVE_TURN:
    "The call needs the user's approval but the calling conversation has no turn in progress in which to ask.",
  REMOTE_RELAY_BUSY:
    "The session is busy (a turn queued or running, or a background task) and cannot do this now, for example move to another folder.",
  REMOTE_RELAY_FORBIDDEN:
    "This is for the user only: a non-blocking question, a relay's approval card, or the agent's own question.",
  REMOTE_RELAY_SCHEDULE_LIMIT:
    "The conversation already has 20 active schedules firing in it, or created 20 for other sessions.",
  REMOTE_RELAY_QUESTION_LIMIT:
    "20 non-blocking questions are already pending for the asking conversation or for the session concerned.",
  REMOTE_RELAY_LOCKED: "The paired relay is locked in this conversation: ask the user to mention it.",
  REMOTE_RELAY_LIMIT:
    "A count limit is reached: 4 agent-started sessions at work, 20 subscriptions, or the one-level rule for sessions started by an agent.",
  REMOTE_RELAY_HOP_LIMIT:
    "The prompt has already crossed two relays and the third was not unlocked by the user personally.",
  REMOTE_RELAY_SELF: "The action targets the agent's own conversation, which it may not do.",
  REMOTE_RELAY_UNREACHABLE: "The paired relay does not answer.",
  REMOTE_RELAY_AUTH: "The token was missing or refused.",
  REMOTE_RELAY_UNAVAILABLE:
    "The relay's database does not answer (HTTP 503); nothing was changed. Try again: the relay reconnects by itself.",
  REMOTE_RELAY_INTERNAL: "A bug in the relay; it is logged with the requestId given.",
};

/**
 * A relay's own codes, carried in `remoteCode` next to a REMOTE_RELAY_* code (R-BILL-04,
 * R-MDL-06). `remoteCode` stays a plain string on the envelope, since relays may add codes.
 */
export const KnownRemoteCodeSchema = z.enum([
  "CLAUDE_API_CAP_REACHED",
  "MONTHLY_CAP_REACHED",
  "COPILOT_MODEL_UNAVAILABLE",
  "CLAUDE_PROVIDER_REQUIRED",
]);
export type KnownRemoteCode = z.infer<typeof KnownRemoteCodeSchema>;
