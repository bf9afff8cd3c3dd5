/** Whether a `relay` argument names this relay: `"this"` or its own name, in any case (§3.1). */
export function isThisRelay(ref: string, relayName: string): boolean {
  const wanted = ref.trim().toLowerCase();
  return wanted === "this" || wanted === relayName.toLowerCase();
}
