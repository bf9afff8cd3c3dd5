import { open } from "node:fs/promises";

/** The end of a file as text; `complete` when it is the whole file. */
export interface FileEnd {
  readonly text: string;
  readonly complete: boolean;
  readonly size: number;
}

/**
 * Reads at most `maxBytes` from the end of the file: the tail of a 1 GB output costs what the
 * tail of a 1 KB one does. `null` when the file is not there.
 */
export async function readFileEnd(path: string, maxBytes: number): Promise<FileEnd | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "r");
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, size - length);
    return { text: buffer.subarray(0, bytesRead).toString("utf8"), complete: length === size, size };
  } finally {
    await handle.close();
  }
}
