import type { DeliveryReason, DeliveryRecord, DeliveryStatus, NewDelivery } from "./ports/delivery-store";

/**
 * `row` with its status, message, due time or reason changed, written out field by field: a big
 * fan-out copies hundreds of these rows, and a spread of objects of several shapes runs V8's slow
 * path for each one.
 */
export function withDelivery(
  row: NewDelivery,
  change: {
    readonly status?: DeliveryStatus;
    readonly messageId?: string | null;
    readonly dueAt?: number;
    readonly reason?: DeliveryReason;
  },
): DeliveryRecord {
  return {
    id: row.id,
    watcher: row.watcher,
    subscriptionId: row.subscriptionId,
    eventId: row.eventId,
    eventSeq: row.eventSeq,
    reason: change.reason ?? row.reason,
    dueAt: change.dueAt ?? row.dueAt,
    echoTurnId: row.echoTurnId,
    status: change.status ?? row.status ?? "pending",
    messageId: change.messageId === undefined ? (row.messageId ?? null) : change.messageId,
    createdAt: row.createdAt,
  };
}
