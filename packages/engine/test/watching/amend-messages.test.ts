import { createSequentialIdGenerator, T0 } from "@oar/core/testing";
import type { NewDelivery } from "@oar/scheduler";
import { newDelivery } from "@oar/scheduler/testing";
import type { OutboxEvent } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { newSession, openTestStores } from "../../src/testing";
import { amendMessages, sendToWatchers } from "../../src/watching/sending";

const END = T0 + 30_000;

let seq = 0;
function event(kind: "turn_end" | "error", text: string): OutboxEvent {
  seq += 1;
  const base = { id: `evt_${seq}`, at: new Date(T0 + seq).toISOString(), session: "ses_a", title: "Build" };
  return kind === "turn_end" ? { ...base, kind, status: "done", text } : { ...base, kind, message: text };
}

/** A `window` delivery of `outbox` to `watcher`, due at the window's end. */
function delivery(id: string, watcher: string, outbox: OutboxEvent, overrides: Partial<NewDelivery> = {}) {
  return newDelivery(id, {
    watcher,
    eventId: outbox.id,
    eventSeq: Number(outbox.id.slice(4)),
    dueAt: END,
    ...overrides,
  });
}

/** A message written ahead of its time grows by what routing gave its watcher before the commit. */
describe("events that join a message before its commit (R-DLV-04)", () => {
  it("window and urgent rows join their watcher's message; echoes in doubt, held rows and other watchers' stay pending", async () => {
    const stores = await openTestStores();
    for (const id of ["ses_w", "ses_v", "ses_x"]) {
      await stores.sessions.createSession(newSession(id, { provider: "external" }));
    }
    const [first, second, broken, echo, other] = [
      event("turn_end", "first"),
      event("turn_end", "second"),
      event("error", "broken"),
      event("turn_end", "mine"),
      event("turn_end", "elsewhere"),
    ];
    for (const outbox of [first, second, broken, echo, other]) {
      await stores.events.appendEvent({ id: outbox.id, sessionId: "ses_a", event: outbox, at: T0 });
    }
    await stores.deliveries.addDeliveries([
      delivery("dlv_w1", "ses_w", first),
      delivery("dlv_v1", "ses_v", first),
    ]);
    const ctx = { stores, ids: createSequentialIdGenerator(), now: END, drivenFromOutside: () => true };
    const sent = await sendToWatchers(
      ctx,
      await stores.deliveries.claimDueDeliveries({ now: END, watchers: 10 }),
    );
    expect(sent.map((message) => [message.watcher, message.kind])).toEqual([
      ["ses_v", "batch"],
      ["ses_w", "batch"],
    ]);

    // Routed meanwhile: for ses_w a turn_end in its window and an error; for ses_v a turn_end it
    // may have collected itself (an echo in doubt) and one held by a digest; for ses_x, which has
    // no message, a turn_end.
    await stores.deliveries.addDeliveries([
      delivery("dlv_w2", "ses_w", second),
      delivery("dlv_w3", "ses_w", broken, { reason: "urgent", dueAt: T0 + 20_000 }),
      delivery("dlv_v2", "ses_v", echo, { echoTurnId: "trn_1" }),
      delivery("dlv_v3", "ses_v", other, { reason: "digest" }),
      delivery("dlv_x1", "ses_x", second),
    ]);
    const late = await stores.deliveries.listDueOf({ watchers: sent.map((m) => m.watcher), now: END });
    expect(late.map((row) => row.id)).toEqual(["dlv_v2", "dlv_v3", "dlv_w2", "dlv_w3"]);
    const amended = await amendMessages(ctx, sent, late);

    const [v, w] = amended;
    expect(v).toBe(sent[0]);
    expect(w?.rows.map((row) => row.id)).toEqual(["dlv_w1", "dlv_w2", "dlv_w3"]);
    expect(w?.kind).toBe("urgent");
    const [text] = (await stores.sessions.listMessages("ses_w")).map((message) => message.text);
    expect(text).toContain('"first"');
    expect(text).toContain('"second"');
    expect(text).toContain('error "broken"');
    const [vText] = (await stores.sessions.listMessages("ses_v")).map((message) => message.text);
    expect(vText).toContain('"first"');
    expect(vText).not.toContain('"mine"');
    expect(await stores.deliveries.listWakeups({ watchers: ["ses_v", "ses_w"], since: 0 })).toEqual([
      { messageId: v?.messageId, watcher: "ses_v", at: END, kind: "batch" },
      { messageId: w?.messageId, watcher: "ses_w", at: END, kind: "urgent" },
    ]);
    // Joined rows are sent with the message; the rest waits for the next pass.
    const pending = await stores.deliveries.claimDueDeliveries({ now: END, watchers: 10 });
    expect(pending.map((row) => row.id)).toEqual(["dlv_v2", "dlv_v3", "dlv_x1"]);
  });

  it("nothing routed meanwhile changes nothing", async () => {
    const stores = await openTestStores();
    await stores.sessions.createSession(newSession("ses_w", { provider: "external" }));
    const first = event("turn_end", "first");
    await stores.events.appendEvent({ id: first.id, sessionId: "ses_a", event: first, at: T0 });
    await stores.deliveries.addDeliveries([delivery("dlv_w1", "ses_w", first)]);
    const ctx = { stores, ids: createSequentialIdGenerator(), now: END, drivenFromOutside: () => true };
    const sent = await sendToWatchers(
      ctx,
      await stores.deliveries.claimDueDeliveries({ now: END, watchers: 10 }),
    );
    const before = await stores.sessions.listMessages("ses_w");
    expect(await amendMessages(ctx, sent, [])).toEqual(sent);
    expect(await stores.sessions.listMessages("ses_w")).toEqual(before);
  });
});
