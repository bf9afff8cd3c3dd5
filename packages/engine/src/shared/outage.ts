import { isRelayError } from "@oar/core";

/** The first wait after an outage, and the longest one (DESIGN §4: the relay reconnects by itself). */
export const RETRY_FIRST_MS = 200;
export const RETRY_MAX_MS = 5_000;

/** The failure of a store whose database does not answer (the stores' REMOTE_RELAY_UNAVAILABLE). */
export function isOutage(error: unknown): boolean {
  return isRelayError(error) && error.code === "REMOTE_RELAY_UNAVAILABLE";
}
