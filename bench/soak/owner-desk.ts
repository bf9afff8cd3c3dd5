import { setTimeout as sleep } from "node:timers/promises";
import type { Soak } from "./cast";

const CARDS_EVERY_MS = 300;
const INBOX_EVERY_MS = 1_500;

/**
 * The owner at the console for the whole run, through the balancer like everyone: allows every
 * approval card (an agent's first create_session and first subscribe, the anti-loop guard's
 * card), and answers every question in the Inbox, yes or no. Runs until `stop` resolves.
 */
export function ownerDesk(soak: Soak): { stop(): Promise<void> } {
  let stopped = false;
  const cards = (async () => {
    while (!stopped) {
      const listed = await soak.calls.owner("GET", "/v1/owner/cards?status=pending");
      const pending = (listed.body?.cards ?? []) as { id: string; kind: string; reason?: string }[];
      for (const card of listed.ok ? pending : []) {
        const allowed = await soak.calls.owner("POST", `/v1/owner/cards/${card.id}`, { choice: "allow" });
        if (allowed.ok) {
          soak.journal.cards.push({ id: card.id, kind: card.reason ?? card.kind, at: Date.now() });
        }
      }
      await sleep(CARDS_EVERY_MS);
    }
  })();
  const inbox = (async () => {
    while (!stopped) {
      const listed = await soak.calls.owner("GET", "/v1/owner/inbox");
      const pending = (listed.body?.questions ?? []) as { question_id: string; status: string }[];
      for (const question of listed.ok ? pending : []) {
        if (question.status !== "pending") {
          continue;
        }
        const choice = soak.random.bool() ? "yes" : "no";
        const answered = await soak.calls.owner("POST", `/v1/owner/inbox/${question.question_id}`, {
          choice,
        });
        if (answered.ok) {
          soak.journal.answers.push({ questionId: question.question_id, choice, at: Date.now() });
        }
      }
      await sleep(INBOX_EVERY_MS);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await Promise.all([cards, inbox]);
    },
  };
}
