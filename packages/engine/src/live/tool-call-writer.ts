import { type Clock, type Logger, silentLogger, type TimerId } from "@oar/core";
import type { EngineDeps } from "../ports/engine-deps";
import type { ToolCallRecord } from "../ports/tool-call-store";
import { isOutage, RETRY_FIRST_MS, RETRY_MAX_MS } from "../shared/outage";

/**
 * How long a call's line may wait for others to share its insert. A read's own work is one or two
 * statements; a line written per call was a third of it (issue 29). A relay that stops dead loses
 * the lines of this last window: the log is the console's view of what agents did, not state.
 */
export const TOOL_CALL_WINDOW_MS = 250;
/** A window's lines are written at once past this many, so an insert stays small. */
export const TOOL_CALL_BATCH_MAX = 200;
/**
 * The lines a process keeps while the database does not answer, written once it does. A longer
 * outage loses its oldest lines past this many (logged): memory stays bounded whatever the cut.
 */
export const TOOL_CALL_HELD_MAX = 2_000;

/** The calls of this process waiting to be written to the log, a batch at a time. */
export interface ToolCallWriter {
  /**
   * Queues one call of a conversation of this relay (R-UI-02); it is written within
   * TOOL_CALL_WINDOW_MS, with the calls queued meanwhile, in one statement. Never throws: a write
   * the database did not answer is tried again until it does; any other failure is logged.
   */
  add(deps: EngineDeps, record: ToolCallRecord): void;
  /** Writes what is queued now; resolves once every call queued so far is written, held or its failure logged. */
  settled(): Promise<void>;
  /**
   * Writes what is queued one last time and leaves no retry behind (the engine closes): lines the
   * database still does not take are lost, named in an error line.
   */
  close(): Promise<void>;
}

interface QueuedLine {
  readonly deps: EngineDeps;
  readonly record: ToolCallRecord;
}

const loggerOf = (lines: readonly QueuedLine[]): Logger => lines[0]?.deps.logger ?? silentLogger;
const named = (lines: readonly QueuedLine[]) =>
  lines.map(({ record }) => `${record.sessionId} ${record.action}`);

/**
 * The log is written beside the calls, not in their way: a call answers without waiting for its
 * line, and the calls of a window share one insert. Lines a database cut kept from their insert
 * wait in order, ahead of newer ones, and go out when it answers again.
 */
export function createToolCallWriter(options: { readonly clock: Clock }): ToolCallWriter {
  const { clock } = options;
  // Lines a cut kept from their insert, oldest first; `queued` holds the newer ones.
  let held: QueuedLine[] = [];
  let queued: QueuedLine[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: TimerId | null = null;
  let retryMs = RETRY_FIRST_MS;
  // Told once per outage, from the first write it refused until one lands.
  let told = false;
  let closed = false;

  const later = (ms: number) => {
    if (timer === null && !closed) {
      timer = clock.setTimeout(() => void flush(), ms);
    }
  };

  /** Past TOOL_CALL_HELD_MAX lines waiting, the oldest go. */
  const trim = () => {
    let over = held.length + queued.length - TOOL_CALL_HELD_MAX;
    if (over <= 0) {
      return;
    }
    const lost = held.slice(0, over);
    held = held.slice(lost.length);
    over -= lost.length;
    lost.push(...queued.slice(0, over));
    queued = queued.slice(over);
    loggerOf(lost).error("The activity log lost lines a database outage kept too long.", {
      calls: named(lost),
    });
  };

  /** Keeps lines the database did not take, behind those held already, and tries again later. */
  const hold = (lines: readonly QueuedLine[], error?: unknown) => {
    if (!told && error !== undefined) {
      told = true;
      loggerOf(lines).warn("The database does not answer; the activity log's lines wait for it.", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    held.push(...lines);
    trim();
    later(retryMs);
  };

  const writeAll = async (lines: readonly QueuedLine[]) => {
    if (held.length > 0) {
      // A write queued before the cut met it: its lines go behind the held ones, in order.
      hold(lines);
      return;
    }
    for (let start = 0; start < lines.length; start += TOOL_CALL_BATCH_MAX) {
      const batch = lines.slice(start, start + TOOL_CALL_BATCH_MAX);
      try {
        await batch[0]?.deps.stores.toolCalls.recordToolCalls(batch.map((line) => line.record));
      } catch (error) {
        if (isOutage(error)) {
          hold(lines.slice(start), error);
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
          return;
        }
        loggerOf(batch).error("Recording relay_tool calls in the activity log failed.", {
          calls: named(batch),
          error,
        });
      }
    }
    retryMs = RETRY_FIRST_MS;
    told = false;
  };

  const flush = (): Promise<void> => {
    if (timer !== null) {
      clock.clearTimeout(timer);
      timer = null;
    }
    if (held.length + queued.length > 0) {
      const lines = [...held, ...queued];
      held = [];
      queued = [];
      writing = writing.then(() => writeAll(lines));
    }
    return writing;
  };

  return {
    add(deps, record) {
      queued.push({ deps, record });
      if (held.length > 0) {
        // While lines are held, new ones wait with them for the retry rather than press the database.
        trim();
        later(retryMs);
      } else if (queued.length >= TOOL_CALL_BATCH_MAX) {
        void flush();
      } else {
        later(TOOL_CALL_WINDOW_MS);
      }
    },
    settled: flush,
    async close() {
      await flush();
      closed = true;
      if (timer !== null) {
        clock.clearTimeout(timer);
        timer = null;
      }
      const lost = [...held, ...queued];
      held = [];
      queued = [];
      if (lost.length > 0) {
        loggerOf(lost).error(
          "The activity log lost lines: the relay closed while the database did not answer.",
          {
            calls: named(lost),
          },
        );
      }
    },
  };
}
