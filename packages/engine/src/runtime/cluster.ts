import type { ClusterLink, ClusterReply, ClusterRequest, ClusterTarget } from "../ports/cluster-link";
import type { Lease } from "../ports/lease-store";
import type { TaskRecord } from "../ports/task-store";
import { errorMessage } from "../shared/error-message";
import { readFileEnd } from "../tasks/output-file";
import { RUNNER_LEASE_PREFIX } from "./runner-lease";
import type { RuntimeContext } from "./runtime-context";

/** Where a task's output was read from, or why it could not be. */
export type OutputRead =
  | { readonly kind: "read"; readonly end: Awaited<ReturnType<typeof readFileEnd>> }
  /** No relay process runs on the host the file is on. */
  | { readonly kind: "lost"; readonly host: string }
  /** The process of that host did not answer: the call may be repeated. */
  | { readonly kind: "unreachable"; readonly host: string };

/**
 * This process's view of the others of its cluster (DESIGN §9): the live runner leases that say
 * how they are reached. Without a link (one process, or the embedded database) there are none.
 */
export interface Cluster {
  /** Sends `request` to each live process holding one of `leases` (every other one when omitted). */
  tell<R extends ClusterRequest>(request: R, leases?: ReadonlySet<string>): Promise<ClusterReply<R>[]>;
  /** The end of a task's output file, on this host or through a process of the task's. */
  readOutput(task: TaskRecord, maxBytes: number): Promise<OutputRead>;
  /** Ends, on `host`, the processes a gone relay process left there; false when nobody there could. */
  reap(lease: Lease): Promise<boolean>;
}

export function createCluster(
  ctx: RuntimeContext,
  link: ClusterLink | undefined,
  own: () => string | undefined,
): Cluster {
  const self = ctx.runnerProcess;

  const others = async (): Promise<(ClusterTarget & { readonly host: string | null })[]> => {
    if (link === undefined || !ctx.sharedStore) {
      return [];
    }
    const now = ctx.clock.now();
    const mine = own();
    const leases = await ctx.stores.leases.listLeases({ prefix: RUNNER_LEASE_PREFIX });
    return leases.flatMap((lease) =>
      lease.expiresAt > now && lease.name !== mine && lease.address !== null
        ? [{ lease: lease.name, address: lease.address, host: lease.process?.host ?? null }]
        : [],
    );
  };

  const send = async <R extends ClusterRequest>(target: ClusterTarget, request: R) => {
    if (link === undefined) {
      throw new Error("This relay process has no link to the others of its cluster.");
    }
    return link.send(target, request);
  };

  /** A live process of `host`, the one holding `preferred` first. */
  const processOn = async (host: string, preferred: string | null) => {
    const found = (await others()).filter((target) => target.host === host);
    return found.find((target) => target.lease === preferred) ?? found[0];
  };

  return {
    async tell(request, leases) {
      const targets = (await others()).filter((target) => leases === undefined || leases.has(target.lease));
      const replies = await Promise.all(
        targets.map((target) =>
          send(target, request).catch((error: unknown) => {
            // Its lease runs out unless it renews, and then its work is recovered; until then it is left.
            ctx.logger.warn("Another relay process of the cluster could not be reached.", {
              op: request.op,
              process: target.lease,
              address: target.address,
              error: errorMessage(error),
            });
            return undefined;
          }),
        ),
      );
      return replies.filter((reply) => reply !== undefined);
    },

    async readOutput(task, maxBytes) {
      const { host, outputPath } = task;
      if (outputPath === null) {
        return { kind: "read", end: null };
      }
      if (host === null || self === undefined || host === self.host) {
        return { kind: "read", end: await readFileEnd(outputPath, maxBytes) };
      }
      const target = await processOn(host, task.runner);
      if (target === undefined) {
        return { kind: "lost", host };
      }
      try {
        const reply = await send(target, { op: "read_output", taskId: task.id, maxBytes });
        return { kind: "read", end: reply.end };
      } catch (error) {
        ctx.logger.warn("A task's output could not be read through the process of its host.", {
          host,
          process: target.lease,
          error: errorMessage(error),
        });
        return { kind: "unreachable", host };
      }
    },

    async reap(lease) {
      const instance = lease.instance;
      const host = lease.process?.host;
      if (instance === null || host === undefined || self === undefined) {
        return false;
      }
      if (host === self.host) {
        const ended = (await self.reap?.(instance)) ?? 0;
        if (ended > 0) {
          ctx.logger.info("Ended what a gone relay process of this host left running.", {
            lease: lease.name,
            processes: ended,
          });
        }
        return self.reap !== undefined;
      }
      const target = await processOn(host, null);
      if (target !== undefined) {
        try {
          await send(target, { op: "reap", instance });
          return true;
        } catch (error) {
          ctx.logger.warn("The relay process of a gone one's host could not be reached.", {
            lease: lease.name,
            error: errorMessage(error),
          });
        }
      }
      ctx.logger.warn(
        `What a gone relay process left running is lost on host ${host}: no relay process there ends it.`,
        {
          lease: lease.name,
          instance,
        },
      );
      return false;
    },
  };
}
