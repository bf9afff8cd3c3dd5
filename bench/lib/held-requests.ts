export interface HeldRequests {
  /** Throws if the server answered any of them instead of holding it. */
  assertHeld(): void;
  /** Ends every request from the client's side (the server sees each connection go away). */
  release(): Promise<void>;
}

/**
 * Opens `count` POST requests, `batch` at a time, and resolves once every one has its response
 * head: the server holds them all open. A response whose body ends while held is a call that was
 * answered instead of held, which would measure something else, so `assertHeld` throws on it.
 */
export async function holdRequests(
  url: string,
  init: { readonly headers: Readonly<Record<string, string>>; readonly body: string },
  count: number,
  batch = 100,
): Promise<HeldRequests> {
  const aborts: AbortController[] = [];
  const ended: string[] = [];
  const bodies: Promise<void>[] = [];
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    await Promise.all(
      Array.from({ length: size }, async () => {
        const abort = new AbortController();
        aborts.push(abort);
        const response = await fetch(url, { method: "POST", ...init, signal: abort.signal });
        if (response.status !== 200) {
          throw new Error(`${url}: ${response.status} ${await response.text()}`);
        }
        bodies.push(
          response.text().then(
            (text) => {
              ended.push(text.trim());
            },
            () => {},
          ),
        );
      }),
    );
  }
  return {
    assertHeld() {
      if (ended.length > 0) {
        throw new Error(
          `${ended.length} of ${count} requests were answered, not held: ${ended[0]?.slice(0, 300)}`,
        );
      }
    },
    async release() {
      for (const abort of aborts) {
        abort.abort();
      }
      await Promise.all(bodies);
    },
  };
}
