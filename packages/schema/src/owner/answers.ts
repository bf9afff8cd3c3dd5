import { z } from "zod";
import { nonBlankString } from "../args/text";
import { storableBody } from "../input/storable-input";
import { LIMITS } from "../limits";
import { hasAnyField } from "./at-least-one";

/** Filter of GET /v1/owner/cards. */
export const CardStatusSchema = z.enum(["pending", "allowed", "denied", "answered", "expired"]);
export type CardStatus = z.infer<typeof CardStatusSchema>;

export const OwnerCardsQuerySchema = z.object({ status: CardStatusSchema.optional() });
export type OwnerCardsQuery = z.infer<typeof OwnerCardsQuerySchema>;

const choices = z.array(nonBlankString(LIMITS.choiceMaxChars)).min(1).max(LIMITS.choicesMax);
const answer = nonBlankString(LIMITS.answerMaxChars);

/** POST /v1/owner/cards/:id: Allow/Deny on an approval card, or the answer to a question card. */
export const OwnerCardAnswerBodySchema = storableBody(
  z.union(
    [
      z.strictObject({ choice: z.enum(["allow", "deny"]) }),
      z
        .strictObject({ answer: answer.optional(), choices: choices.optional() })
        .refine(hasAnyField, { error: "A question card needs answer or choices." }),
    ],
    {
      error:
        'Send { "choice": "allow" | "deny" } for an approval card, or { "answer"?, "choices"? } for a question card.',
    },
  ),
);
export type OwnerCardAnswerBody = z.infer<typeof OwnerCardAnswerBodySchema>;

/** GET /v1/owner/inbox: pending questions; `closed=true` adds those closed in the last day. */
export const OwnerInboxQuerySchema = z.strictObject({ closed: z.enum(["true", "false"]).optional() });
export type OwnerInboxQuery = z.infer<typeof OwnerInboxQuerySchema>;

/** POST /v1/owner/inbox/:id: answer a non-blocking question, or dismiss it. */
export const OwnerInboxAnswerBodySchema = storableBody(
  z
    .strictObject({
      answer: answer.optional(),
      choice: nonBlankString(LIMITS.optionMaxChars).optional(),
      dismiss: z.literal(true).optional(),
    })
    .refine(hasAnyField, { error: "Send answer, choice, or dismiss: true." })
    .refine((body) => !(body.dismiss && (body.answer !== undefined || body.choice !== undefined)), {
      error: "dismiss goes alone: a dismissed question has no answer.",
    }),
);
export type OwnerInboxAnswerBody = z.infer<typeof OwnerInboxAnswerBodySchema>;
