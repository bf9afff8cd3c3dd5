import { recordTurnEnded } from "../outbox/outbox";
import type { EngineStores } from "../ports/engine-stores";
import type { Lease } from "../ports/lease-store";
import type { TurnRecord } from "../ports/session-store";
import { errorMessage } from "../shared/error-message";
import { settleSessionState } from "../tasks/session-state";
import { RUNNER_LEASE_PREFIX } from "./runner-lease";
import type { RuntimeContext } from "./runtime-context";
import { reportTurnEnded } from "./turn-report";

export const RELAY_RESTARTED_MESSAGE = "The relay restarted while this turn was running.";
export const RUNNER_GONE_MESSAGE =
  "The relay process running this turn went away (shut down, killed or cut off from the database), so the turn ended.";

/**
 * Ends turns whose worker is gone, in one change with their question cards and the state of
 * their sessions (idle unless a turn is still queued there).
 */
async function failTurns(
  ctx: RuntimeContext,
  stores: EngineStores,
  select: Parameters<EngineStores["sessions"]["failRunningTurns"]>[0],
): Promise<FailedTurn[]> {
  const failed = await stores.sessions.failRunningTurns(select);
  const ended: FailedTurn[] = [];
  for (const turn of failed) {
    await stores.questions.endBlockingQuestionsOfTurn({ turnId: turn.id, at: select.endedAt });
    const session = await stores.sessions.getSession(turn.sessionId);
    await recordTurnEnded({ stores, ids: ctx.ids, relayName: ctx.relayName }, turn, session?.title ?? "");
    ended.push({ turn, provider: session?.provider ?? null });
  }
  for (const sessionId of new Set(failed.map((turn) => turn.sessionId))) {
    await settleSessionState(stores, sessionId);
  }
  return ended;
}

/** A turn recovery ended, with its session's provider (`null`: the session is gone). */
interface FailedTurn {
  readonly turn: TurnRecord;
  readonly provider: string | null;
}

/** Once their change committed: each is logged and counted as any turn's end is. */
function reportFailed(ctx: RuntimeContext, failed: readonly FailedTurn[]): void {
  for (const { turn, provider } of failed) {
    reportTurnEnded(ctx, turn, provider);
  }
}

/**
 * On start. With the stores to itself (the embedded database is locked to one process), every
 * turn still `running` belonged to the process before, and sessions it left `running_turn` are
 * idle. With stores shared by other processes (DESIGN §9), only turns claimed without a lease (by
 * a relay before leases) are known to be orphans; the rest wait for their runner's lease to expire.
 */
export async function recoverAtStart(ctx: RuntimeContext): Promise<void> {
  const now = ctx.clock.now();
  const failed = await ctx.stores.transaction(async (stores) => {
    if (ctx.sharedStore) {
      const orphans = await failTurns(ctx, stores, {
        error: RELAY_RESTARTED_MESSAGE,
        endedAt: now,
        runner: null,
      });
      await ctx.tasks.failLost(stores, { runner: null, at: now });
      return orphans;
    }
    const orphans = await failTurns(ctx, stores, { error: RELAY_RESTARTED_MESSAGE, endedAt: now });
    await ctx.tasks.failLost(stores, { at: now });
    const stale = (await stores.sessions.listSessions({ scope: "all" })).filter(
      (session) => session.state !== "idle",
    );
    for (const session of stale) {
      await settleSessionState(stores, session.id);
    }
    return orphans;
  });
  reportFailed(ctx, failed);
}

/**
 * Lets go, on their holders' behalf, the live runner leases of processes of this host whose pid
 * no longer runs. Such a holder never renews, so its turns need not wait for the expiry. A lease
 * of another host, or of a pid that runs (this process's own too: another runtime embedded in
 * it), is left to expire: from here its holder may be alive.
 */
async function letGoOfDeadHolders(ctx: RuntimeContext, own: string | undefined): Promise<void> {
  const self = ctx.runnerProcess;
  if (self === undefined) {
    return;
  }
  const now = ctx.clock.now();
  for (const lease of await ctx.stores.leases.listLeases({ prefix: RUNNER_LEASE_PREFIX })) {
    const holder = lease.process;
    if (lease.name === own || lease.expiresAt <= now || holder === null || holder.host !== self.host) {
      continue;
    }
    if (holder.pid === self.pid || self.isAlive(holder.pid)) {
      continue;
    }
    // As its holder would at shutdown: the row stays, expired, and is retired below like any other.
    const { name, owner, fencingToken } = lease;
    if (await ctx.stores.leases.releaseLease({ name, owner, fencingToken, now })) {
      ctx.logger.info("A relay process of this host is gone; its lease ends now.", {
        lease: lease.name,
        pid: holder.pid,
      });
    }
  }
}

/**
 * The turns of relay processes whose lease expired, or that are known gone (this host, pid not
 * running), end as `error`. Each lease is retired and its turns failed in one change, by exactly
 * one process (the one whose retirement succeeds), and the old holder can no longer renew it.
 * Returns the sessions whose turns ended.
 */
export async function recoverExpiredRunners(
  ctx: RuntimeContext,
  own: string | undefined,
  reap: (lease: Lease) => Promise<unknown> = async () => {},
): Promise<string[]> {
  await letGoOfDeadHolders(ctx, own);
  const now = ctx.clock.now();
  const expired = await ctx.stores.leases.listExpiredLeases({ prefix: RUNNER_LEASE_PREFIX, now });
  const sessions = new Set<string>();
  for (const lease of expired) {
    if (lease.name === own) {
      continue;
    }
    const failed = await ctx.stores.transaction(async (stores) => {
      if (!(await stores.leases.retireLease({ name: lease.name, fencingToken: lease.fencingToken, now }))) {
        return null;
      }
      await ctx.tasks.failLost(stores, { runner: lease.name, at: now });
      return failTurns(ctx, stores, { error: RUNNER_GONE_MESSAGE, endedAt: now, runner: lease.name });
    });
    if (failed === null) {
      continue;
    }
    // Its agents' CLIs, tasks and clones do not outlive it: ended on its host, by the process that retired it.
    await reap(lease).catch((error: unknown) =>
      ctx.logger.warn("What a gone relay process left running could not be ended.", {
        lease: lease.name,
        error: errorMessage(error),
      }),
    );
    if (failed.length > 0) {
      ctx.logger.warn("Recovered the turns of a relay process that went away.", {
        lease: lease.name,
        turns: failed.length,
      });
    }
    reportFailed(ctx, failed);
    for (const { turn } of failed) {
      sessions.add(turn.sessionId);
    }
  }
  return [...sessions];
}

/** Sessions with a queued turn and none running: their queues wait for someone to drive them. */
export async function undrivenQueues(ctx: RuntimeContext): Promise<string[]> {
  const active = await ctx.stores.sessions.listActiveTurns();
  const running = new Set(active.filter((turn) => turn.status === "running").map((turn) => turn.sessionId));
  return [...new Set(active.filter((turn) => !running.has(turn.sessionId)).map((turn) => turn.sessionId))];
}
