import { z } from "zod";
import { actionArgs } from "../args/action-args";
import { relayArg, sessionArg } from "../args/common";
import { okResultSchema } from "../envelope/envelopes";

export const StopArgsSchema = actionArgs("stop", { relay: relayArg, session: sessionArg });
export type StopArgs = z.infer<typeof StopArgsSchema>;

/** R-STOP-02: false when nothing was running. */
export const StopResultSchema = okResultSchema({ session: z.string(), stopRequested: z.boolean() });
export type StopResult = z.infer<typeof StopResultSchema>;
