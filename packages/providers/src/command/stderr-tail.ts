export const STDERR_TAIL_LINES = 20;
export const STDERR_TAIL_BYTES = 4096;

/** The end of a command's stderr, for the error of a failed turn: its last lines, bounded in size. */
export class StderrTail {
  private tail: Buffer = Buffer.alloc(0);
  private cut = false;

  push(chunk: Uint8Array): void {
    const joined = Buffer.concat([this.tail, chunk]);
    if (joined.length > STDERR_TAIL_BYTES) {
      // A copy, so the kept tail does not pin the whole chunk it came from.
      this.tail = Buffer.from(joined.subarray(joined.length - STDERR_TAIL_BYTES));
      this.cut = true;
    } else {
      this.tail = joined;
    }
  }

  /** At most the last 20 lines and 4 KiB, trailing blank space removed; "" when nothing was written. */
  text(): string {
    const lines = this.tail.toString("utf8").trimEnd().split(/\r?\n/);
    // The first line of a cut tail is a fragment (maybe starting inside a character): drop it.
    const whole = this.cut && lines.length > 1 ? lines.slice(1) : lines;
    return whole
      .slice(-STDERR_TAIL_LINES)
      .join("\n")
      .replace(/^\uFFFD+/, "");
  }
}
