import { err, ok } from "@oar/core";
import { refusingLikePostgres, type Snapshotting, snapshotOf } from "@oar/core/testing";
import type { DeliveryRecord, WakeupRecord } from "@oar/scheduler";
import type { OutboxRecord } from "../ports/event-store";
import type { JsonObject, JsonValue } from "../ports/json";
import type { Lease, LeaseStore } from "../ports/lease-store";
import type { RetentionStore } from "../ports/retention-store";
import type { ScheduleFiring, ScheduleRecord } from "../ports/schedule-store";
import type { SettingsStore } from "../ports/settings-store";
import type { TaskRecord } from "../ports/task-store";
import type { TokenRecord, TokenStore } from "../ports/token-store";
import type { ToolCallRecord } from "../ports/tool-call-store";

export function createMemorySettingsStore(): SettingsStore & Snapshotting {
  const values = new Map<string, JsonValue>();
  return refusingLikePostgres("SettingsStore", {
    snapshot: () => snapshotOf(values),
    async getSetting(key) {
      return values.has(key) ? values.get(key) : undefined;
    },
    async setSetting(key, value) {
      values.set(key, structuredClone(value));
    },
    async listSettings() {
      return Object.fromEntries(values);
    },
    async deleteSetting(key) {
      return values.delete(key);
    },
    async addToSetting(key, deltas) {
      const stored = values.get(key);
      const sums: Record<string, JsonValue> = isObject(stored) ? { ...stored } : {};
      for (const [field, delta] of Object.entries(deltas)) {
        const before = sums[field];
        const sum = (typeof before === "number" ? before : 0) + refuseNonFinite(delta);
        // Postgres refuses a float8 sum past the largest double ("value out of range: overflow").
        sums[field] = refuseNonFinite(sum);
      }
      values.set(key, sums);
    },
    async updateSetting(key, update) {
      // Synchronous from the read to the write: no other call runs in between.
      const next = structuredClone(update(values.has(key) ? structuredClone(values.get(key)) : undefined));
      values.set(key, next);
      return structuredClone(next);
    },
  });
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function refuseNonFinite(n: number): number {
  if (!Number.isFinite(n)) {
    throw new Error(`value out of range: ${n} is not a finite number`);
  }
  return n;
}

export function createMemoryTokenStore(): TokenStore & Snapshotting {
  const tokens = new Map<string, TokenRecord>();
  const live = () => [...tokens.values()].filter((t) => t.revokedAt === null);
  return refusingLikePostgres("TokenStore", {
    snapshot: () => snapshotOf(tokens),
    async storeToken(input) {
      if ([...tokens.values()].some((t) => t.hash === input.hash)) {
        throw new Error("A token with this hash is already stored.");
      }
      const record: TokenRecord = { ...input, label: input.label ?? null, revokedAt: null };
      tokens.set(record.id, record);
      return record;
    },
    async findTokenByHash(hash) {
      return live().find((t) => t.hash === hash) ?? null;
    },
    async revokeToken({ id, at }) {
      const token = tokens.get(id);
      if (!token || token.revokedAt !== null) {
        return false;
      }
      tokens.set(id, { ...token, revokedAt: at });
      return true;
    },
    async revokeTokensOf({ kind, subject, at }) {
      const revoked = live().filter((t) => t.kind === kind && t.subject === subject);
      for (const token of revoked) {
        tokens.set(token.id, { ...token, revokedAt: at });
      }
      return revoked.length;
    },
    async bindToken({ id, label }) {
      const token = tokens.get(id);
      if (!token || token.revokedAt !== null) {
        return false;
      }
      if (token.label === null) {
        tokens.set(id, { ...token, label });
        return true;
      }
      return token.label === label;
    },
    async listTokens({ kind, subject } = {}) {
      return live()
        .filter(
          (t) => (kind === undefined || t.kind === kind) && (subject === undefined || t.subject === subject),
        )
        .sort((a, b) => a.createdAt - b.createdAt);
    },
  });
}

export function createMemoryLeaseStore(): LeaseStore & Snapshotting {
  const leases = new Map<string, Lease>();
  return refusingLikePostgres("LeaseStore", {
    snapshot: () => snapshotOf(leases),
    async acquireLease({ name, owner, ttlMs, now, process, instance, address }) {
      const current = leases.get(name);
      const live = current !== undefined && current.expiresAt > now;
      if (live && current.owner !== owner) {
        return err({ holder: current });
      }
      const fencingToken = live ? current.fencingToken : (current?.fencingToken ?? 0) + 1;
      const lease: Lease = {
        name,
        owner,
        fencingToken,
        expiresAt: now + ttlMs,
        process: process ?? null,
        instance: instance ?? null,
        address: address ?? null,
      };
      leases.set(name, lease);
      return ok(lease);
    },
    async renewLease({ name, owner, fencingToken, ttlMs, now, address }) {
      const current = leases.get(name);
      if (!current || current.owner !== owner || current.fencingToken !== fencingToken) {
        return err({ holder: current ?? null });
      }
      const lease: Lease = { ...current, expiresAt: now + ttlMs, ...(address == null ? {} : { address }) };
      leases.set(name, lease);
      return ok(lease);
    },
    async releaseLease({ name, owner, fencingToken, now }) {
      const current = leases.get(name);
      if (!current || current.owner !== owner || current.fencingToken !== fencingToken) {
        return false;
      }
      // The lease is kept, expired, so that the next holder's token is still higher.
      leases.set(name, { ...current, expiresAt: Math.min(current.expiresAt, now) });
      return true;
    },
    async getLease(name) {
      return leases.get(name) ?? null;
    },
    async listLeases({ prefix }) {
      return [...leases.values()].filter((lease) => lease.name.startsWith(prefix));
    },
    async listExpiredLeases({ prefix, now }) {
      return [...leases.values()]
        .filter((lease) => lease.name.startsWith(prefix) && lease.expiresAt <= now)
        .sort((a, b) => a.expiresAt - b.expiresAt);
    },
    async holdsLease({ name, fencingToken }) {
      return leases.get(name)?.fencingToken === fencingToken;
    },
    async retireLease({ name, fencingToken, now }) {
      const current = leases.get(name);
      if (!current || current.fencingToken !== fencingToken || current.expiresAt > now) {
        return false;
      }
      return leases.delete(name);
    },
  });
}

/** The other memory stores' rows the memory retention store deletes from (their `rows`). */
export interface MemoryRetainedRows {
  readonly events: Map<string, OutboxRecord>;
  readonly deliveries: Map<string, DeliveryRecord>;
  readonly wakeups: Map<string, WakeupRecord>;
  readonly routingCursor: () => number;
  readonly schedules: ReadonlyMap<string, ScheduleRecord>;
  readonly firings: Map<string, ScheduleFiring>;
  readonly toolCalls: ToolCallRecord[];
  readonly tasks: Map<string, TaskRecord>;
}

/**
 * In-memory RetentionStore over the other memory stores' rows; it passes the same contract suite
 * as @oar/storage. It holds nothing of its own, so nothing to snapshot: a transaction's rollback
 * puts back what it deleted through those stores' snapshots.
 */
export function createMemoryRetentionStore(rows: MemoryRetainedRows): RetentionStore {
  /** Deletes the first `limit` entries of `map` that `doomed` picks; how many went. */
  const deleteFrom = <K, V>(map: Map<K, V>, doomed: (value: V) => boolean, limit: number) => {
    const keys = [...map].filter(([, value]) => doomed(value)).map(([key]) => key);
    const gone = keys.slice(0, Math.max(0, limit));
    for (const key of gone) {
      map.delete(key);
    }
    return gone.length;
  };
  return refusingLikePostgres("RetentionStore", {
    async pruneEvents({ keptSince, limit }) {
      const cursor = rows.routingCursor();
      const newest = [...rows.events.values()].at(-1)?.seq ?? 0;
      const sending = new Set(
        [...rows.deliveries.values()].filter((d) => d.status === "pending").map((d) => d.eventId),
      );
      return deleteFrom(
        rows.events,
        (event) =>
          event.at < keptSince && event.seq <= cursor && event.seq < newest && !sending.has(event.id),
        limit,
      );
    },
    async pruneDeliveries({ keptSince, limit }) {
      return deleteFrom(rows.deliveries, (d) => d.status !== "pending" && d.createdAt < keptSince, limit);
    },
    async pruneWakeups({ keptSince, limit }) {
      return deleteFrom(rows.wakeups, (wakeup) => wakeup.at < keptSince, limit);
    },
    async pruneFirings({ keptSince, limit }) {
      return deleteFrom(
        rows.firings,
        (firing) => {
          const endedAt = rows.schedules.get(firing.scheduleId)?.endedAt ?? null;
          return endedAt !== null && endedAt < keptSince;
        },
        limit,
      );
    },
    async pruneToolCalls({ keep, limit }) {
      // Each session's calls newest first (by time, then by the order recorded): those past `keep` go.
      const bySession = new Map<string, { call: ToolCallRecord; order: number }[]>();
      rows.toolCalls.forEach((call, order) => {
        bySession.set(call.sessionId, [...(bySession.get(call.sessionId) ?? []), { call, order }]);
      });
      const doomed = new Set<number>();
      for (const calls of bySession.values()) {
        calls.sort((a, b) => b.call.createdAt - a.call.createdAt || b.order - a.order);
        for (const { order } of calls.slice(Math.max(0, keep))) {
          if (doomed.size < limit) {
            doomed.add(order);
          }
        }
      }
      const kept = rows.toolCalls.filter((_, order) => !doomed.has(order));
      rows.toolCalls.splice(0, rows.toolCalls.length, ...kept);
      return doomed.size;
    },
    async pruneTasks({ keptSince, limit }) {
      return deleteFrom(
        rows.tasks,
        (task) =>
          task.status !== "running" &&
          task.endedAt !== null &&
          task.endedAt < keptSince &&
          task.outputPath === null,
        limit,
      );
    },
    async compact() {
      // Nothing to give back: a deleted entry is gone from memory.
    },
    async countRows() {
      return {
        events: rows.events.size,
        deliveries: rows.deliveries.size,
        wakeups: rows.wakeups.size,
        firings: rows.firings.size,
        toolCalls: rows.toolCalls.length,
        tasks: rows.tasks.size,
      };
    },
  });
}
