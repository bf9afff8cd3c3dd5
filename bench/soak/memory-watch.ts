import { setTimeout as sleep } from "node:timers/promises";
import { heapSamples, type MemorySample, vmRssBytes } from "../lib/process-memory";
import type { RelayCluster } from "../lib/relay-cluster";

/** One process of a member (a kill ends one, the restart begins the next), with its samples. */
export interface InstanceMemory {
  readonly member: string;
  readonly pid: number;
  readonly startedAt: number;
  readonly endedAt: number | null;
  readonly rss: readonly MemorySample[];
  readonly heap: readonly MemorySample[];
  /** The resident set the process logged itself, each minute's right after a full collection. */
  readonly rssLogged: readonly MemorySample[];
}

/**
 * Samples each member's resident set (VmRSS) every `everyMs` while the run goes; on stop, adds
 * the heap samples each process logged itself (`heap-log.ts`).
 */
export function watchMemory(cluster: RelayCluster, everyMs: number): { stop(): Promise<InstanceMemory[]> } {
  const rss = new Map<number, MemorySample[]>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      for (const member of cluster.members) {
        const pid = member.pid();
        const bytes = pid === undefined ? null : await vmRssBytes(pid);
        if (pid !== undefined && bytes !== null) {
          const samples = rss.get(pid) ?? [];
          samples.push({ at: Date.now(), bytes });
          rss.set(pid, samples);
        }
      }
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      const instances: InstanceMemory[] = [];
      for (const member of cluster.members) {
        for (const instance of member.instances) {
          const logged = await heapSamples(member.tmpDir, instance.pid);
          instances.push({
            member: member.name,
            pid: instance.pid,
            startedAt: instance.startedAt,
            endedAt: instance.exitedAt,
            rss: rss.get(instance.pid) ?? [],
            heap: logged.heap,
            rssLogged: logged.rss,
          });
        }
      }
      return instances;
    },
  };
}
