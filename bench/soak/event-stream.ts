import { setTimeout as sleep } from "node:timers/promises";
import { SERVED_BY_HEADER } from "../lib/haproxy";

export interface OwnerEventReader {
  /** How many times each event id (the outbox seq) came. */
  readonly seen: Map<number, number>;
  /** Connections made (the first and every reconnection), with the member that served each. */
  readonly connections: { readonly at: number; readonly servedBy: string | null; readonly status: number }[];
  stop(): Promise<void>;
}

/**
 * The owner's event stream (GET /v1/owner/events) through the balancer for the whole run, from
 * the outbox's start; whenever the stream ends (its process killed, its link cut), it connects
 * again with `Last-Event-ID`, as an EventSource does, so whichever process answers must go on
 * with no gap and no repeat. It also leaves after `reconnectMs` (a page reloaded, a laptop
 * waking up): the balancer hands the next connection to the next process, killed or not.
 */
export function readOwnerEvents(base: string, token: string, reconnectMs: number): OwnerEventReader {
  const seen = new Map<number, number>();
  const connections: OwnerEventReader["connections"][number][] = [];
  const abort = new AbortController();
  let last: number | null = null;

  const readOnce = async () => {
    const leave = new AbortController();
    const timer = setTimeout(() => leave.abort(), reconnectMs);
    try {
      await readUntil(AbortSignal.any([abort.signal, leave.signal]));
    } finally {
      clearTimeout(timer);
    }
  };

  const readUntil = async (signal: AbortSignal) => {
    const response = await fetch(`${base}/v1/owner/events${last === null ? "?from=start" : ""}`, {
      headers: {
        authorization: `Bearer ${token}`,
        ...(last === null ? {} : { "last-event-id": String(last) }),
      },
      signal,
    });
    connections.push({
      at: Date.now(),
      servedBy: response.headers.get(SERVED_BY_HEADER),
      status: response.status,
    });
    if (!response.ok || response.body === null) {
      await response.text().catch(() => "");
      return;
    }
    const decoder = new TextDecoder();
    let pending = "";
    let event: number | null = null;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      pending += decoder.decode(read.value, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("id:")) {
          const id = Number(line.slice(3).trim());
          event = Number.isInteger(id) ? id : null;
        } else if (line === "" && event !== null) {
          // An event counts once dispatched (its blank line), as an EventSource counts it.
          seen.set(event, (seen.get(event) ?? 0) + 1);
          last = event;
          event = null;
        }
      }
    }
  };

  const loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        await readOnce();
      } catch {
        // Cut, reset or stopped: connect again (below) unless stopped.
      }
      if (!abort.signal.aborted) {
        await sleep(500);
      }
    }
  })();

  return {
    seen,
    connections,
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
