import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { EventStore, OutboxRecord } from "../ports/event-store";

/** The memory outbox, with its rows by id for the memory retention store to prune. */
export interface MemoryEventStore extends EventStore, Snapshotting {
  readonly rows: Map<string, OutboxRecord>;
}

/**
 * In-memory EventStore for tests; it passes the same contract suite as @oar/storage. One process
 * holds it, so it has no foreign events to report (`onForeignEvents` is absent).
 */
export function createMemoryEventStore(): MemoryEventStore {
  // Insertion order is seq order: a seq is the last one plus one, so a rolled-back append leaves no gap.
  const events = new Map<string, OutboxRecord>();
  const lastSeq = () => [...events.values()].at(-1)?.seq ?? 0;
  return refusingLikePostgres("EventStore", {
    rows: events,
    snapshot: () => snapshotOf(events),
    async appendEvent(input) {
      if (events.has(input.id)) {
        return null;
      }
      const record: OutboxRecord = {
        seq: lastSeq() + 1,
        id: input.id,
        kind: input.event.kind,
        sessionId: input.sessionId,
        subscriptionId: input.subscriptionId ?? null,
        event: structuredClone(input.event),
        at: input.at,
      };
      events.set(record.id, record);
      return record;
    },
    async listEvents({ after, limit }) {
      return [...events.values()].filter((event) => event.seq > after).slice(0, Math.max(0, limit));
    },
    async getEvents(ids) {
      const wanted = new Set(ids);
      return [...events.values()].filter((event) => wanted.has(event.id));
    },
    async lastEventSeq() {
      return lastSeq();
    },
    async lastSeqBefore(at) {
      return Math.max(0, ...[...events.values()].filter((event) => event.at < at).map((event) => event.seq));
    },
    async hasEventSeq(seq) {
      return [...events.values()].some((event) => event.seq === seq);
    },
  });
}
