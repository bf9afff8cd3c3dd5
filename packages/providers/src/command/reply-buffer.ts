/** What a command's reply keeps at most: a runaway program must not exhaust the relay's memory. */
export const MAX_REPLY_BYTES = 1024 * 1024;

export const REPLY_CUT_NOTE = "\n[The command wrote more than 1 MiB; the rest of its output was dropped.]";

/**
 * A command's stdout as its reply: decoded as UTF-8 across chunk boundaries (a character split
 * between two reads comes out whole), each decoded piece streamed as it comes, and kept up to
 * `maxBytes` of output.
 */
export class ReplyBuffer {
  private readonly decoder = new TextDecoder("utf-8");
  private readonly pieces: string[] = [];
  private kept = 0;
  private cut = false;

  constructor(
    private readonly stream: (text: string) => void,
    private readonly maxBytes = MAX_REPLY_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    if (this.cut) {
      return;
    }
    const room = this.maxBytes - this.kept;
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.kept += part.length;
    this.add(this.decoder.decode(part, { stream: true }));
    if (part.length < chunk.length) {
      // A character the cut split in two is dropped with the rest: the decoder is never flushed.
      this.cut = true;
      this.add(REPLY_CUT_NOTE);
    }
  }

  /** The whole reply; call once, when the output has ended. */
  finish(): string {
    if (!this.cut) {
      this.add(this.decoder.decode());
    }
    return this.pieces.join("");
  }

  private add(text: string): void {
    if (text !== "") {
      this.pieces.push(text);
      this.stream(text);
    }
  }
}
