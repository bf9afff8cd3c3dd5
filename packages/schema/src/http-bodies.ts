import { z } from "zod";

/** HTTP 401 on every surface for a missing or refused bearer token (DESIGN §4). */
export const AuthErrorBodySchema = z.object({
  ok: z.literal(false),
  code: z.literal("REMOTE_RELAY_AUTH"),
  error: z.string().min(1),
});
export type AuthErrorBody = z.infer<typeof AuthErrorBodySchema>;

/** GET /healthz. */
export const HealthzSchema = z.object({
  ok: z.literal(true),
  name: z.string().min(1),
  version: z.string().min(1),
});
export type Healthz = z.infer<typeof HealthzSchema>;

/** GET /healthz while the relay's database does not answer: HTTP 503 (DESIGN §4). */
export const HealthzUnavailableSchema = z.object({
  ok: z.literal(false),
  name: z.string().min(1),
  version: z.string().min(1),
  database: z.literal("unreachable"),
});
export type HealthzUnavailable = z.infer<typeof HealthzUnavailableSchema>;
