import { expect } from "vitest";
import type { MessageRecord, SessionRecord } from "../../src/ports/session-store";
import { createHarness, type Harness, type HarnessOptions, settle } from "../actions/harness";

/** A harness whose caller watches: helpers to let events flow and read what reached a watcher. */
export interface WatchingHarness extends Harness {
  /** Lets the dispatcher route and send what is due now, and the turns it queued run. */
  flow(): Promise<void>;
  /** Moves the fake clock, letting everything due on the way happen. */
  pass(ms: number): Promise<void>;
  /**
   * Moves the fake clock at once, as after a sleep: what came due on the way happens once, at the
   * new time (hours of the relay's few-second polls, each a query on a database, in one step).
   */
  jump(ms: number): Promise<void>;
  /** The relay's event messages in a session, oldest first. */
  eventMessages(sessionId?: string): Promise<MessageRecord[]>;
  /** An owner prompt to a session that ends at once (`echo: …`). */
  prompt(session: SessionRecord, text?: string): Promise<void>;
  subscribe(input: Record<string, unknown>, as?: string): Promise<string>;
}

export async function createWatchingHarness(options: HarnessOptions = {}): Promise<WatchingHarness> {
  const h = await createHarness(options);
  const flow = async () => {
    for (let i = 0; i < 4; i++) {
      await settle();
      await h.engine.settleEvents();
    }
    await settle();
  };
  return {
    ...h,
    flow,
    async pass(ms) {
      await flow();
      await h.clock.advanceAsync(ms);
      await flow();
    },
    async jump(ms) {
      await flow();
      await h.clock.jumpAsync(ms);
      await flow();
    },
    async eventMessages(sessionId = h.caller.id) {
      return (await h.stores.sessions.listMessages(sessionId)).filter((message) => message.role === "relay");
    },
    async prompt(session, text = "work") {
      await h.engine.owner.postMessage(session.id, text);
      await flow();
    },
    async subscribe(input, as = h.caller.id) {
      const result = await h.ok({ action: "subscribe", ...input }, as);
      const id = (result.subscription as { id: string }).id;
      expect(id).toMatch(/^sub_/);
      return id;
    },
  };
}
