import { Hono } from "hono";

export interface AppInfo {
  readonly name: string;
  readonly version: string;
}

/** The HTTP surface. This issue serves /healthz; the agent, owner and peer routes mount here next. */
export function newApp(info: AppInfo): Hono {
  const app = new Hono();
  app.get("/healthz", (c) => c.json({ ok: true, name: info.name, version: info.version }));
  app.notFound((c) =>
    c.json(
      {
        ok: false,
        code: "REMOTE_RELAY_NOT_FOUND",
        error: `No route ${c.req.method} ${c.req.path} on this relay.`,
      },
      404,
    ),
  );
  return app;
}
