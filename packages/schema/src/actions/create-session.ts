import { z } from "zod";
import { actionArgs } from "../args/action-args";
import {
  cwdArg,
  effortArg,
  groupArg,
  modeArg,
  modelArg,
  providerArg,
  relayArg,
  textArg,
  titleArg,
  waitSecondsArg,
} from "../args/common";
import { nonBlankString } from "../args/text";
import { okResultSchema } from "../envelope/envelopes";
import { LIMITS } from "../limits";
import { GroupRefSchema } from "../results/common";
import { turnResultShape } from "../results/turn";
import { ModeSchema } from "../vocabulary";

/** Keys in the exact order of R-CALL-07's message, which lists them. */
export const CreateSessionArgsSchema = actionArgs("create_session", {
  relay: relayArg,
  text: textArg,
  provider: providerArg.optional(),
  model: modelArg.optional(),
  cwd: cwdArg.optional(),
  repo: nonBlankString(LIMITS.repoMaxChars)
    .meta({
      description: 'Repository for a Claude Cloud session, e.g. "example-org/sample-repo" (instead of cwd).',
    })
    .optional(),
  branch: nonBlankString(LIMITS.branchMaxChars)
    .meta({ description: "Branch for a Claude Cloud session." })
    .optional(),
  mode: modeArg.optional(),
  effort: effortArg.optional(),
  title: titleArg.optional(),
  group: groupArg.optional(),
  wait_seconds: waitSecondsArg,
});
export type CreateSessionArgs = z.infer<typeof CreateSessionArgsSchema>;

/** R-CRE-08, R-CRE-09, R-CGRP-08: the turn result plus what the session was started with. */
export const CreateSessionResultSchema = okResultSchema({
  ...turnResultShape,
  provider: z.string(),
  model: z.string(),
  mode: ModeSchema,
  effort: z.string().nullable(),
  title: z.string(),
  repo: z.string().optional(),
  branch: z.string().optional(),
  group: GroupRefSchema.nullable(),
  groupWarning: z.string().optional(),
});
export type CreateSessionResult = z.infer<typeof CreateSessionResultSchema>;
