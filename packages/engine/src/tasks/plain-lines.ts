// CSI sequences (colours, cursor moves), OSC sequences (titles, links) and lone escapes.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what it removes
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the other control characters a terminal would not print
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/**
 * A line of output as plain text (R-RTO-03): colours and other escape sequences removed, and what
 * a carriage return overwrote (a progress bar redrawn in place) dropped, as a terminal shows it.
 */
export function plainLine(raw: string): string {
  const text = raw.replace(ANSI, "").replace(/\r+$/, "");
  const shown = text.slice(text.lastIndexOf("\r") + 1);
  return shown.replace(CONTROL, "");
}

/** Consecutive equal lines as one, marked `[×N]` (R-RTO-03). */
export function foldRepeats(lines: readonly string[]): string[] {
  const folded: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    let end = index + 1;
    while (end < lines.length && lines[end] === line) {
      end++;
    }
    const count = end - index;
    folded.push(count === 1 ? line : `${line} [×${count}]`);
    index = end;
  }
  return folded;
}
