/**
 * DESIGN GAP-02 (R-ENA-01/02): a session is offered relay_tool when agent sessions are enabled
 * on this relay or at least one relay is paired; `tools/list` follows it. A session learns it
 * when its agent starts, so the caller decides at that moment.
 */
export function relayToolOffered(relay: {
  readonly agentSessionsEnabled: boolean;
  readonly pairedRelays: number;
}): boolean {
  return relay.agentSessionsEnabled || relay.pairedRelays > 0;
}
