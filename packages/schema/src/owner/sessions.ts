import { z } from "zod";
import { nonBlankString } from "../args/text";
import { storableBody } from "../input/storable-input";
import { LIMITS } from "../limits";
import { MessageRoleSchema, ModeSchema, SessionStateSchema, TurnStatusSchema } from "../vocabulary";
import { hasAnyField } from "./at-least-one";
import { OwnerSubscriptionSchema } from "./subscriptions";

// Owner API bodies are validated strictly: unlike an agent's provider, the console and scripts
// send exactly what they mean, and a misspelt field should fail loudly.

/** POST /v1/owner/sessions: a conversation the owner starts; `text` becomes its first message. */
export const OwnerCreateSessionBodySchema = storableBody(
  z.strictObject({
    provider: nonBlankString(LIMITS.nameMaxChars).optional(),
    model: nonBlankString(LIMITS.nameMaxChars).optional(),
    cwd: nonBlankString(LIMITS.cwdMaxChars).optional(),
    // A repository session's (claude-cloud, R-CRE-07) instead of cwd.
    repo: nonBlankString(LIMITS.repoMaxChars).optional(),
    branch: nonBlankString(LIMITS.branchMaxChars).optional(),
    title: nonBlankString(LIMITS.titleMaxChars).optional(),
    mode: ModeSchema.optional(),
    group: nonBlankString(LIMITS.nameMaxChars).optional(),
    text: nonBlankString(LIMITS.textMaxChars).optional(),
  }),
);
export type OwnerCreateSessionBody = z.infer<typeof OwnerCreateSessionBodySchema>;

/** POST /v1/owner/sessions/:id/messages: a user message (starts a turn, unlocks mentioned relays). */
export const OwnerPostMessageBodySchema = storableBody(
  z.strictObject({ text: nonBlankString(LIMITS.textMaxChars) }),
);
export type OwnerPostMessageBody = z.infer<typeof OwnerPostMessageBodySchema>;

/**
 * PATCH /v1/owner/sessions/:id. `mayCreateSessions` is the owner's switch alone (R-LOCAL-05);
 * `group: null` takes the session out of its group.
 */
export const OwnerPatchSessionBodySchema = storableBody(
  z
    .strictObject({
      title: nonBlankString(LIMITS.titleMaxChars).optional(),
      mode: ModeSchema.optional(),
      mayCreateSessions: z.boolean().optional(),
      model: nonBlankString(LIMITS.nameMaxChars).optional(),
      effort: nonBlankString(LIMITS.effortMaxChars).optional(),
      group: nonBlankString(LIMITS.nameMaxChars).nullable().optional(),
      cwd: nonBlankString(LIMITS.cwdMaxChars).optional(),
    })
    .refine(hasAnyField, { error: "The body names no field to change." }),
);
export type OwnerPatchSessionBody = z.infer<typeof OwnerPatchSessionBodySchema>;

/** POST /v1/owner/sessions/:id/token and POST /v1/owner/peers/invites. */
export const TokenResponseSchema = z.object({ token: z.string().min(1) });
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

/** A message as the owner API shows it; the relay's event messages have the role `relay`, never `user` (R-DLV-01). */
export const OwnerMessageSchema = z.looseObject({
  id: z.string(),
  sessionId: z.string(),
  turnId: z.string().nullable(),
  role: MessageRoleSchema,
  text: z.string(),
  createdAt: z.number(),
});
export type OwnerMessageJson = z.infer<typeof OwnerMessageSchema>;

/**
 * A session in GET /v1/owner/sessions: the row and its badges (R-UI-03, R-UI-06, R-UI-07):
 * `watched` while a subscription watches it, `watching` = how many distinct sessions it watches.
 */
export const OwnerSessionViewSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  provider: z.string(),
  model: z.string(),
  state: SessionStateSchema,
  viaAgentBadge: z.string().nullable(),
  watched: z.boolean(),
  watching: z.number().int().min(0),
});
export type OwnerSessionViewJson = z.infer<typeof OwnerSessionViewSchema>;

/**
 * One relay_tool call the conversation's agent made (R-UI-02: 🛰️, the action, the relay, the
 * session): `relay` is the relay the call named (this relay's name for "this"), `session` the
 * session it named, `code` the error code of a refused call, `summary` the result's summary or
 * error (at most 300 characters), `at` when the call arrived (epoch ms, like `createdAt`).
 */
export const OwnerToolCallSchema = z.looseObject({
  id: z.string(),
  action: z.string(),
  relay: z.string(),
  session: z.string().nullable(),
  ok: z.boolean(),
  code: z.string().nullable(),
  summary: z.string(),
  at: z.number(),
});
export type OwnerToolCall = z.infer<typeof OwnerToolCallSchema>;

/**
 * GET /v1/owner/sessions/:id: the view with its messages and turns, the live subscriptions it
 * holds as the watcher (the chip, R-UI-06) and its agent's latest relay_tool calls, oldest first
 * (R-UI-02).
 */
export const OwnerSessionDetailSchema = OwnerSessionViewSchema.extend({
  messages: z.array(OwnerMessageSchema),
  turns: z.array(z.looseObject({ id: z.string(), status: TurnStatusSchema })),
  subscriptions: z.array(OwnerSubscriptionSchema),
  toolCalls: z.array(OwnerToolCallSchema),
});
export type OwnerSessionDetailJson = z.infer<typeof OwnerSessionDetailSchema>;
