/**
 * The reply a turn builds up over its runs: warnings first (the model lost its context), then
 * the runs' texts, then the lines about tools that were not run. Warnings and lines are also
 * streamed as they come; the runs' texts were streamed by the runs.
 */
export interface TurnReply {
  warn(line: string): void;
  addText(text: string): void;
  note(line: string): void;
  /** The reply so far, with the text of a run cut short; `{}` when there is nothing. */
  partial(cutShortText?: string): { reply?: string };
  text(): string;
}

export function createTurnReply(write: (line: string) => void): TurnReply {
  const warnings: string[] = [];
  const texts: string[] = [];
  const notes: string[] = [];
  const join = (extra?: string) => [...warnings, ...texts, ...(extra ? [extra] : []), ...notes].join("\n");
  return {
    warn(line) {
      warnings.push(line);
      write(line);
    },
    addText(text) {
      if (text !== "") {
        texts.push(text);
      }
    },
    note(line) {
      notes.push(line);
      write(line);
    },
    partial(cutShortText) {
      const reply = join(cutShortText);
      return reply === "" ? {} : { reply };
    },
    text: () => join(),
  };
}
