import { z } from "zod";
import { TurnWaitStatusSchema } from "../vocabulary";
import { PendingQuestionSchema, ReplySchema } from "./common";

/** What send, create_session and wait return about the prompt's turn (R-WST-05, R-WST-06, GAP-10). */
export const turnResultShape = {
  status: TurnWaitStatusSchema,
  session: z.string(),
  message_id: z.string(),
  /** The reply when `done`; the text so far when `running` or `stopped`. */
  reply: ReplySchema.optional(),
  /** When `waiting`: the question cards the session waits on. */
  pendingQuestions: z.array(PendingQuestionSchema).optional(),
  /** When `error`: what went wrong in the turn. */
  errorMessage: z.string().optional(),
  openUrl: z.string().optional(),
  /** R-MDL-08, R-MDL-09. */
  modelNote: z.string().optional(),
};
