import type { Clock, Logger } from "@oar/core";
import type { EngineDeps } from "../ports/engine-deps";
import { createDueRunner, type DueRunner } from "../runtime/due-runner";
import { pollRemoteQuestion, QUESTION_POLL_MS, QUESTION_POLL_UNREACHABLE_MS } from "./remote-questions";

/** Copies claimed per transaction. */
const POLLED_PER_PASS = 20;

/**
 * R-QCHK-05: looks at the questions this relay's agents asked on paired relays until they close.
 * A copy is claimed (its next look set 30 s ahead, so a crash or another process leaves it be
 * for that long) before the relay is asked, outside any transaction.
 */
export function createQuestionPoller(
  deps: EngineDeps & { readonly logger: Logger; readonly clock: Clock },
): DueRunner {
  const { stores, clock } = deps;
  return createDueRunner({
    clock,
    logger: deps.logger,
    name: "question poller",
    backstopMs: deps.sharedStore === true ? QUESTION_POLL_MS : null,
    async pass() {
      for (;;) {
        const claimed = await stores.transaction(async (tx) => {
          const now = clock.now();
          const due = await tx.questions.claimDuePolls({ now, limit: POLLED_PER_PASS });
          for (const copy of due) {
            await tx.questions.setNextPoll(copy.id, now + QUESTION_POLL_UNREACHABLE_MS);
          }
          return due;
        });
        await Promise.all(claimed.map((copy) => pollRemoteQuestion(deps, copy)));
        if (claimed.length < POLLED_PER_PASS) {
          break;
        }
      }
      return stores.questions.nextPollAt();
    },
  });
}
