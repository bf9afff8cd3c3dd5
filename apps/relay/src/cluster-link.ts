import type { ClusterLink, ClusterReply, ClusterRequest, ClusterTarget } from "@oar/engine";

/** The header a cluster-internal call carries the cluster's secret in (never the owner token). */
export const CLUSTER_SECRET_HEADER = "X-OAR-Cluster-Secret";
/** Where one relay process asks another of its cluster (DESIGN §9). */
export const CLUSTER_ROUTE = "/v1/cluster";
/** The settings key the cluster's secret is stored under (made by the migrations, once per database). */
export const CLUSTER_SECRET_KEY = "cluster.secret";

// A stop ends the turn and its tasks' groups (2 s grace) before it answers.
const CALL_TIMEOUT_MS = 30_000;

/**
 * The engine's link to the other processes of its cluster: one POST per request, with the
 * secret every process reads from the database. Any answer other than 200 throws, with the
 * other process's message.
 */
export function createClusterLink(options: {
  readonly secret: string;
  readonly fetch?: typeof globalThis.fetch;
}): ClusterLink {
  const send = options.fetch ?? globalThis.fetch;
  return {
    async send<R extends ClusterRequest>(target: ClusterTarget, request: R): Promise<ClusterReply<R>> {
      const response = await send(new URL(CLUSTER_ROUTE, target.address), {
        method: "POST",
        headers: { "Content-Type": "application/json", [CLUSTER_SECRET_HEADER]: options.secret },
        body: JSON.stringify({ target: target.lease, request }),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      const body = (await response.json().catch(() => null)) as { reply?: unknown; error?: unknown } | null;
      if (!response.ok || body === null || body.reply === undefined) {
        const said = typeof body?.error === "string" ? body.error : `HTTP ${response.status}`;
        throw new Error(
          `The relay process at ${target.address} refused a cluster call (${request.op}): ${said}`,
        );
      }
      return body.reply as ClusterReply<R>;
    },
  };
}
