import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { ToolCallRecord, ToolCallStore } from "../ports/tool-call-store";

/** The memory tool calls, with their rows (in the order recorded) for the memory retention store to prune. */
export interface MemoryToolCallStore extends ToolCallStore, Snapshotting {
  readonly rows: ToolCallRecord[];
}

/**
 * In-memory ToolCallStore. `isLive` tells which sessions exist and are not deleted, as the
 * database's join does (`createMemorySessionStores().isLive`).
 */
export function createMemoryToolCallStore(isLive: (sessionId: string) => boolean): MemoryToolCallStore {
  // Kept in the order recorded, which stands in for the database's sequence column.
  const calls: ToolCallRecord[] = [];
  return refusingLikePostgres("ToolCallStore", {
    rows: calls,
    snapshot: () => snapshotOf(calls),
    async recordToolCalls(batch) {
      const fresh = batch.filter(
        (call) => isLive(call.sessionId) && !calls.some((kept) => kept.id === call.id),
      );
      calls.push(...fresh.map((call) => ({ ...call })));
    },
    async listToolCalls(sessionId, { limit }) {
      const own = calls
        .map((call, order) => ({ call, order }))
        .filter(({ call }) => call.sessionId === sessionId)
        .sort((a, b) => a.call.createdAt - b.call.createdAt || a.order - b.order);
      return own.slice(Math.max(0, own.length - Math.max(0, limit))).map(({ call }) => ({ ...call }));
    },
    async deleteToolCallsOf(sessionId) {
      const before = calls.length;
      const kept = calls.filter((call) => call.sessionId !== sessionId);
      calls.splice(0, calls.length, ...kept);
      return before - kept.length;
    },
  });
}
