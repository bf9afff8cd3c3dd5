/** Names under which a secret may reach a log line: a bearer token, a key, a password. */
const SECRET_KEYS = [
  "authorization",
  "Authorization",
  "cookie",
  "token",
  "ownerToken",
  "agentToken",
  "inviteToken",
  "apiKey",
  "api_key",
  "password",
  "secret",
  "clusterSecret",
] as const;

/**
 * pino's `redact` paths: each name at the top of a line's fields and one level down (a `headers`
 * object, a request's fields), censored whatever the level.
 */
export const REDACTED_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => [key, `*.${key}`]);
