import type { ListenMeta, Sql } from "postgres";
import type { ForeignEventsHint } from "./stores";
import { EVENTS_CHANNEL } from "./stores/event-store";

/** How long to wait before trying LISTEN again when the database refused it. */
const RETRY_MS = 5_000;

/** The outbox hint of one postgres.js pool: `hint` for the event store, `stop` before the pool ends. */
export interface ForeignEvents {
  readonly hint: ForeignEventsHint;
  stop(): void;
}

/**
 * LISTEN on the outbox's channel (DESIGN §9: a wake-up hint behind polling). postgres.js opens one
 * connection of its own for it at the first listener, and after a reconnect LISTENs again and
 * calls `onlisten`: events appended meanwhile were not notified, so the listeners are called then
 * too. Every append notifies at its commit, this process's own included. The pool's `end()` also
 * ends the listening connection, so a closed storage lets the process exit.
 */
export function listenForEvents(client: Sql, channel: string = EVENTS_CHANNEL): ForeignEvents {
  const listeners = new Set<() => void>();
  let listening: Promise<ListenMeta | null> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const callListeners = () => {
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // A listener's failure is its own; the others still hear the hint.
      }
    }
  };
  const start = () => {
    if (stopped || listening !== undefined || listeners.size === 0) {
      return;
    }
    listening = client.listen(channel, callListeners, callListeners).then(
      (meta) => meta,
      () => {
        // The database did not take the LISTEN (it is away): try again later; polling goes on.
        listening = undefined;
        retry = setTimeout(start, RETRY_MS);
        retry.unref?.();
        return null;
      },
    );
  };
  const unlisten = () => {
    const current = listening;
    listening = undefined;
    void current?.then((meta) => meta?.unlisten()).catch(() => {});
  };

  return {
    hint(listener) {
      const entry = () => listener();
      listeners.add(entry);
      start();
      return () => {
        if (listeners.delete(entry) && listeners.size === 0) {
          unlisten();
        }
      };
    },
    stop() {
      stopped = true;
      listeners.clear();
      clearTimeout(retry);
      unlisten();
    },
  };
}
