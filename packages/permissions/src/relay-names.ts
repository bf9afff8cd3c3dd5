/** A relay as the user and agents name it (R-RLY-03): its name and its host, as list_relays shows them. */
export interface NamedRelay {
  readonly name: string;
  /** A host name, `host:port`, or the relay's URL; only the host and port count. */
  readonly host: string;
}

/** A host reduced to what a mention or a `relay` argument compares: lowercase host, optional port. */
export interface HostKey {
  readonly host: string;
  readonly port: number | null;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//;

function isDigits(text: string): boolean {
  return text.length > 0 && [...text].every((char) => char >= "0" && char <= "9");
}

/**
 * `https://ops@Build-Box.example.com.:8443/x` → `{ host: "build-box.example.com", port: 8443 }`.
 * Accepts a bare host, `host:port`, `[v6]:port` or a URL. An empty host gives `host: ""`.
 */
export function normalizeHost(value: string): HostKey {
  let rest = value.trim().toLowerCase().replace(SCHEME, "");
  for (const stop of ["/", "?", "#"]) {
    const at = rest.indexOf(stop);
    if (at >= 0) {
      rest = rest.slice(0, at);
    }
  }
  rest = rest.slice(rest.lastIndexOf("@") + 1);
  let host = rest;
  let portText = "";
  if (rest.startsWith("[")) {
    const close = rest.indexOf("]");
    host = close < 0 ? rest.slice(1) : rest.slice(1, close);
    portText = close < 0 ? "" : rest.slice(close + 1).replace(/^:/, "");
  } else {
    const colon = rest.lastIndexOf(":");
    // One colon: host:port. Several: a bare IPv6 address without brackets, no port.
    if (colon >= 0 && rest.indexOf(":") === colon) {
      host = rest.slice(0, colon);
      portText = rest.slice(colon + 1);
    }
  }
  while (host.endsWith(".")) {
    host = host.slice(0, -1);
  }
  return { host, port: isDigits(portText) ? Number(portText) : null };
}

/** Dotted-quad IPv4 (each part 0–255) or anything with a colon (IPv6). */
export function isIpAddress(value: string): boolean {
  if (value.includes(":")) {
    return true;
  }
  const parts = value.split(".");
  return (
    parts.length === 4 && parts.every((part) => isDigits(part) && part.length <= 3 && Number(part) <= 255)
  );
}

/**
 * R-LOCK-02: a name that is an IP address or `localhost` counts as mentioned only with `@`. The
 * same holds for such a host (decided: a pasted log full of 127.0.0.1 is not the user addressing
 * a relay).
 */
export function countsOnlyWithAt(nameOrHost: string): boolean {
  const value = nameOrHost.toLowerCase();
  return value === "localhost" || isIpAddress(value);
}

/** Whether two host keys name the same relay: same host, and the same port when both have one. */
export function sameHost(a: HostKey, b: HostKey): boolean {
  return a.host !== "" && a.host === b.host && (a.port === null || b.port === null || a.port === b.port);
}

export type RelayRef =
  | { readonly kind: "self" }
  | { readonly kind: "paired"; readonly name: string }
  | { readonly kind: "ambiguous"; readonly names: readonly string[] }
  | { readonly kind: "unknown" };

/**
 * Resolves a `relay` argument (§3.1): `"this"` or this relay's own name (R-RLY-02), a paired
 * relay's name, or its host (R-RLY-03), case-insensitively. A name wins over a host; a host that
 * two pairings share (same host, ports not given) is `ambiguous`.
 */
export function resolveRelayRef(
  ref: string,
  relays: { readonly selfName: string; readonly paired: readonly NamedRelay[] },
): RelayRef {
  const wanted = ref.trim().toLowerCase();
  if (wanted === "this" || wanted === relays.selfName.toLowerCase()) {
    return { kind: "self" };
  }
  const byName = relays.paired.find((relay) => relay.name.toLowerCase() === wanted);
  if (byName) {
    return { kind: "paired", name: byName.name };
  }
  const key = normalizeHost(wanted);
  const byHost = relays.paired.filter((relay) => sameHost(key, normalizeHost(relay.host)));
  const [only] = byHost;
  if (only === undefined) {
    return { kind: "unknown" };
  }
  return byHost.length === 1
    ? { kind: "paired", name: only.name }
    : { kind: "ambiguous", names: byHost.map((relay) => relay.name) };
}
