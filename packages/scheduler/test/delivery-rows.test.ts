import { describe, expect, it } from "vitest";
import { type NewDelivery, withDelivery } from "../src";

const ROW: NewDelivery = {
  id: "dlv_1",
  watcher: "ses_w",
  subscriptionId: "sub_1",
  eventId: "evt_1",
  eventSeq: 7,
  reason: "window",
  dueAt: 30_000,
  echoTurnId: "trn_1",
  createdAt: 1_000,
};

describe("withDelivery", () => {
  it("copies every field and changes only those given", () => {
    expect(withDelivery(ROW, {})).toEqual({ ...ROW, status: "pending", messageId: null });
    expect(withDelivery(ROW, { status: "sent", messageId: "msg_1" })).toEqual({
      ...ROW,
      status: "sent",
      messageId: "msg_1",
    });
    expect(withDelivery(ROW, { dueAt: 5, reason: "cap" })).toEqual({
      ...ROW,
      dueAt: 5,
      reason: "cap",
      status: "pending",
      messageId: null,
    });
  });

  it("keeps a row's own status and message unless told otherwise", () => {
    const sent = { ...ROW, status: "sent" as const, messageId: "msg_1" };
    expect(withDelivery(sent, { dueAt: 1 })).toMatchObject({ status: "sent", messageId: "msg_1", dueAt: 1 });
    expect(withDelivery(sent, { status: "dropped", messageId: null })).toMatchObject({
      status: "dropped",
      messageId: null,
    });
  });
});
