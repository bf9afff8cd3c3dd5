import { z } from "zod";
import { nonBlankString } from "../args/text";
import { storableBody } from "../input/storable-input";
import { LIMITS } from "../limits";
import { ModeSchema } from "../vocabulary";
import { hasAnyField } from "./at-least-one";

// Owner API bodies are validated strictly: unlike an agent's provider, the console and scripts
// send exactly what they mean, and a misspelt field should fail loudly.

/** POST /v1/owner/sessions: a conversation the owner starts; `text` becomes its first message. */
export const OwnerCreateSessionBodySchema = storableBody(
  z.strictObject({
    provider: nonBlankString(LIMITS.nameMaxChars).optional(),
    model: nonBlankString(LIMITS.nameMaxChars).optional(),
    cwd: nonBlankString(LIMITS.cwdMaxChars).optional(),
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
