import { describe, expect, it } from "vitest";
import { REPLY_CUT_NOTE, ReplyBuffer } from "../../src/command/reply-buffer";
import { StderrTail } from "../../src/command/stderr-tail";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("command output buffers", () => {
  it("streams decoded pieces and holds back a character split between chunks", () => {
    const streamed: string[] = [];
    const reply = new ReplyBuffer((text) => streamed.push(text));
    const euro = bytes("€"); // e2 82 ac
    reply.push(Uint8Array.of(0x61, euro[0] as number));
    reply.push(euro.subarray(1, 2));
    reply.push(Uint8Array.of(euro[2] as number, 0x62));
    expect(reply.finish()).toBe("a€b");
    expect(streamed).toEqual(["a", "€b"]);
  });

  it("cuts at the byte cap, dropping a character the cut splits, and notes the cut once", () => {
    const streamed: string[] = [];
    const reply = new ReplyBuffer((text) => streamed.push(text), 4);
    reply.push(bytes("abcé")); // 5 bytes: the cap falls inside "é"
    reply.push(bytes("more"));
    expect(reply.finish()).toBe(`abc${REPLY_CUT_NOTE}`);
    expect(streamed).toEqual(["abc", REPLY_CUT_NOTE]);
  });

  it("flushes an incomplete character at the end as a replacement character", () => {
    const reply = new ReplyBuffer(() => undefined);
    reply.push(Uint8Array.of(0x61, 0xc3));
    expect(reply.finish()).toBe("a\uFFFD");
  });

  it("keeps the last 20 lines of stderr, without trailing blank lines", () => {
    const tail = new StderrTail();
    for (let line = 1; line <= 25; line++) {
      tail.push(bytes(`line ${line}\n`));
    }
    tail.push(bytes("\n\n"));
    expect(tail.text().split("\n")).toEqual(Array.from({ length: 20 }, (_, index) => `line ${index + 6}`));
  });

  it("keeps at most 4 KiB of stderr and drops the line the cut began in", () => {
    const tail = new StderrTail();
    tail.push(bytes(`${"a".repeat(5000)}\nlast line\n`));
    expect(tail.text()).toBe("last line");
    const single = new StderrTail();
    single.push(bytes(`${"é".repeat(3000)}x`)); // 6001 bytes: the cut falls inside a character
    const text = single.text();
    expect(text.startsWith("é")).toBe(true);
    expect(text.endsWith("éx")).toBe(true);
    expect(new TextEncoder().encode(text).length).toBeLessThanOrEqual(4096);
  });

  it("is empty when nothing was written", () => {
    expect(new StderrTail().text()).toBe("");
  });
});
