import type { QuestionAnswer, TurnIO } from "@oar/engine";

/**
 * Raises a blocking question card and waits for the owner's answer; "stopped" when the turn is
 * stopped (or the worker closed, aborting `signal`) while the card is open.
 */
export async function askUnlessStopped(
  io: TurnIO,
  question: { readonly text: string; readonly options: readonly string[] },
  signal: AbortSignal,
): Promise<QuestionAnswer | "stopped"> {
  if (signal.aborted) {
    return "stopped";
  }
  let onAbort = () => {};
  const stopped = new Promise<"stopped">((resolve) => {
    onAbort = () => resolve("stopped");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([io.askUser(question), stopped]);
  } catch (error) {
    if (signal.aborted || io.signal.aborted) {
      return "stopped";
    }
    throw error;
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
