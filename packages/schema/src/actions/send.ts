import type { z } from "zod";
import { actionArgs } from "../args/action-args";
import {
  effortArg,
  modeArg,
  modelArg,
  providerArg,
  relayArg,
  sessionArg,
  textArg,
  waitSecondsArg,
} from "../args/common";
import { okResultSchema } from "../envelope/envelopes";
import { turnResultShape } from "../results/turn";

/** R-SEND-01 … R-SEND-06, R-BILL-01 (provider). */
export const SendArgsSchema = actionArgs("send", {
  relay: relayArg,
  session: sessionArg,
  text: textArg,
  wait_seconds: waitSecondsArg,
  mode: modeArg.optional(),
  model: modelArg.optional(),
  effort: effortArg.optional(),
  provider: providerArg.optional(),
});
export type SendArgs = z.infer<typeof SendArgsSchema>;

export const SendResultSchema = okResultSchema(turnResultShape);
export type SendResult = z.infer<typeof SendResultSchema>;
