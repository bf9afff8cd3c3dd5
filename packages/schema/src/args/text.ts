import { z } from "zod";

/** Matches any non-whitespace; the issue formatter turns a miss into "must not be blank". */
export const NON_BLANK = /\S/;

/** A string of 1..max characters that is not only whitespace. */
export function nonBlankString(max: number): z.ZodString {
  return z.string().min(1).max(max).regex(NON_BLANK);
}
