// The peer of a held wait: a bare Hono server on @hono/node-server that holds POST /v1/tool the
// way the relay does — body read as JSON, response started at once, a space every 25 s, the JSON
// at the end — with no auth, engine or database behind it.
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const KEEP_ALIVE_MS = 25_000;
const HOLD_MS = 600_000;
const encoder = new TextEncoder();

const app = new Hono();
app.post("/v1/tool", async (c) => {
  const call = (await c.req.json()) as { action?: unknown };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const started = Date.now();
      const tick = () => {
        if (Date.now() - started >= HOLD_MS) {
          controller.enqueue(encoder.encode(JSON.stringify({ ok: true, action: call.action })));
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(" "));
        timer = setTimeout(tick, KEEP_ALIVE_MS);
      };
      timer = setTimeout(tick, KEEP_ALIVE_MS);
    },
    cancel() {
      clearTimeout(timer);
    },
  });
  return c.body(body, 200, { "Content-Type": "application/json; charset=utf-8" });
});

const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  console.log(JSON.stringify({ ready: true, port: info.port }));
});
process.on("SIGTERM", () => {
  server.close();
  process.exit(0);
});
