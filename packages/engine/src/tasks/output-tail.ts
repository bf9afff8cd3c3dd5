import { maskCredentials } from "./credential-mask";
import { foldRepeats, plainLine } from "./plain-lines";
import { type TestCounts, testCounts } from "./test-counts";

/** read_task_output's default and largest `lines` (§13). */
export const DEFAULT_TAIL_LINES = 50;
export const MAX_TAIL_LINES = 500;

export interface OutputTail {
  /** The last lines as an agent may read them: plain text, credentials masked, repeats folded. */
  readonly tail: string[];
  /** There is more before them (in `text`, or before it when `text` is itself only the end). */
  readonly truncated: boolean;
  readonly counts: TestCounts | null;
}

/**
 * The end of a task's output as read_task_output gives it (R-RTO-03, R-RTO-04). `text` is the
 * output or its end (`complete` false: read from the end of a larger file, its first line maybe
 * cut); `wanted` lines after folding. Counts are read from the plain lines of `text`, where a
 * runner's summary is, at the end.
 */
export function outputTail(text: string, wanted: number, complete = true): OutputTail {
  const raw = text.split("\n");
  if (raw.at(-1) === "") {
    raw.pop();
  }
  if (!complete) {
    raw.shift();
  }
  const plain = raw.map(plainLine);
  const folded = foldRepeats(plain);
  const tail = folded.slice(Math.max(0, folded.length - wanted)).map(maskCredentials);
  return { tail, truncated: !complete || folded.length > wanted, counts: testCounts(plain) };
}
