import { createHash, timingSafeEqual } from "node:crypto";
import type { Engine } from "@oar/engine";
import { Hono } from "hono";
import { z } from "zod";
import { CLUSTER_SECRET_HEADER } from "../../cluster-link";
import { errorResponse } from "../errors";
import { parseWith, readJson } from "../validate";

const sessionOp = (op: "stop_turn" | "kill_worker" | "end_tasks") =>
  z.object({ op: z.literal(op), sessionId: z.string().min(1).max(200) }).strict();

export const ClusterCallSchema = z
  .object({
    target: z.string().min(1).max(200),
    request: z.discriminatedUnion("op", [
      sessionOp("stop_turn"),
      sessionOp("kill_worker"),
      sessionOp("end_tasks"),
      z
        .object({
          op: z.literal("read_output"),
          taskId: z.string().min(1).max(200),
          maxBytes: z
            .number()
            .int()
            .min(1)
            .max(64 * 1024 * 1024),
        })
        .strict(),
      z.object({ op: z.literal("question_answered"), questionId: z.string().min(1).max(200) }).strict(),
      z.object({ op: z.literal("reap"), instance: z.string().min(1).max(200) }).strict(),
    ]),
  })
  .strict();

function sha256(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/**
 * POST /v1/cluster: what another process of this relay's cluster asks of this one (DESIGN §9).
 * Only with the cluster's secret, which lives in the database: an owner token, an agent token or
 * a paired relay's invite is refused like no secret at all. Without a secret (one process on the
 * embedded database) the route refuses everything.
 */
export function clusterRoutes(options: { readonly engine: Engine; readonly secret: string | undefined }) {
  const expected = options.secret === undefined ? undefined : sha256(options.secret);
  const app = new Hono();
  app.post("/", async (c) => {
    const given = c.req.header(CLUSTER_SECRET_HEADER);
    if (expected === undefined || given === undefined || !timingSafeEqual(sha256(given), expected)) {
      return errorResponse(
        c,
        "REMOTE_RELAY_AUTH",
        "This route is for the relay's own processes: it needs the cluster's secret.",
      );
    }
    const { target, request } = parseWith(ClusterCallSchema, await readJson(c));
    return c.json({ ok: true, reply: await options.engine.serveCluster(request, target) });
  });
  return app;
}
