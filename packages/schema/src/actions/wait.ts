import type { z } from "zod";
import { actionArgs } from "../args/action-args";
import { idArg, relayArg, sessionArg, waitSecondsArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { turnResultShape } from "../results/turn";

/** R-WAIT-01 … R-WAIT-03. Without message_id it waits for the session's latest prompt. */
export const WaitArgsSchema = actionArgs("wait", {
  relay: relayArg,
  session: sessionArg,
  message_id: idArg(
    "The prompt to wait for (message_id of send or create_session); without it, the session's latest prompt.",
  ).optional(),
  wait_seconds: waitSecondsArg,
});
export type WaitArgs = z.infer<typeof WaitArgsSchema>;

export const WaitResultSchema = okResultSchema(turnResultShape);
export type WaitResult = z.infer<typeof WaitResultSchema>;
