// Reported by /healthz and the peer surface's /info; paired relays gate features on it.
export const RELAY_VERSION = "0.1.0";
