import { refuse } from "./refusal";

/** Whether a `relay` argument names this relay: `"this"` or its own name, in any case (§3.1). */
export function isThisRelay(ref: string, relayName: string): boolean {
  const wanted = ref.trim().toLowerCase();
  return wanted === "this" || wanted === relayName.toLowerCase();
}

/** Resolves a `relay` argument; there are no paired relays yet, so any other name is unknown. */
export function resolveRelay(ref: string, relayName: string): void {
  if (!isThisRelay(ref, relayName)) {
    refuse(
      "REMOTE_RELAY_NOT_FOUND",
      `No relay named "${ref}". list_relays shows the relays this conversation can use.`,
    );
  }
}
