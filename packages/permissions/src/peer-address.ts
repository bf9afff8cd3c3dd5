import { ALLOW, refuse, type Verdict } from "./verdict";

/**
 * Where plain http:// to a host would go. Only `loopback` and `private` keep the traffic on the
 * machine or on a network the owner runs; everything else may cross networks nobody vouches for.
 */
export type PeerHostKind =
  | "loopback"
  | "private"
  | "link-local"
  | "unspecified"
  | "ipv4-compatible"
  | "public"
  | "name";

const EXAMPLE = "https://build-box.example.com";

/** Long or credential-bearing input is not echoed back: a message must never carry a password. */
function shown(raw: string): string {
  return raw.length <= 200 && !raw.includes("@") ? `"${raw}"` : "the address";
}

/**
 * R-HOP-06 and DESIGN §7 for a paired relay's address, or null when it may be paired:
 * - a URL, http:// or https://;
 * - no user name or password: the invite token is the credential, and a password in the address
 *   would be shown wherever the address is (list_relays, GET /v1/owner/peers);
 * - plain http:// only to loopback (127.0.0.0/8, ::1, `localhost`) or a private range (10/8,
 *   172.16/12, 192.168/16, fc00::/7). Link-local (169.254/16, fe80::/10) is not private: anyone on
 *   the same link answers there.
 * The host is judged as the WHATWG URL parser reads it, the same parser fetch uses, so
 * `http://2130706433/` and `http://0x7f.1/` are 127.0.0.1 and `[::ffff:169.254.0.1]` is link-local.
 */
export function peerAddressProblem(raw: string): string | null {
  let url: URL;
  try {
    if (typeof raw !== "string") {
      throw new TypeError("not a string");
    }
    url = new URL(raw);
  } catch {
    return `${shown(String(raw))} is not a URL. Give the paired relay's address, for example ${EXAMPLE}.`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return `a paired relay's address must use https:// (got ${url.protocol}//).`;
  }
  if (url.username !== "" || url.password !== "") {
    return `credentials do not belong in a paired relay's address: remove the "user:password@" part. The invite token is the credential, and it goes in token.`;
  }
  if (url.protocol === "https:") {
    return null;
  }
  const kind = peerHostKind(url.hostname);
  if (kind === "loopback" || kind === "private") {
    return null;
  }
  return `a paired relay's address must use https://; plain http:// is accepted only for loopback and private network addresses (got ${url.hostname}${WHY[kind]}).`;
}

const WHY: Record<Exclude<PeerHostKind, "loopback" | "private">, string> = {
  "link-local": ", a link-local address: anyone on the same link answers there, it is not a private network",
  unspecified: ", which names no host",
  "ipv4-compatible": ", an obsolete IPv4-compatible IPv6 address",
  public: ", a public address",
  name: ", a host name: where it resolves is not known when pairing",
};

/**
 * The owner API's form of the rule: REMOTE_RELAY_INVALID_INPUT naming `url`. Owner verbs apply it
 * to every address they store, so each embedder (HTTP app, console, CLI) gets the same guarantee.
 */
export function peerAddressRule(raw: string): Verdict {
  const problem = peerAddressProblem(raw);
  return problem === null ? ALLOW : refuse("REMOTE_RELAY_INVALID_INPUT", `url: ${problem}`);
}

/**
 * A stored address as it may be shown: without a user name or password. Pairings stored before
 * the rule refused them may still hold some, and no view of a peer (list_relays, the owner API)
 * may show them.
 */
export function peerAddressForDisplay(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.username === "" && url.password === "") {
      return raw;
    }
    url.username = "";
    url.password = "";
    return url.href;
  } catch {
    // Not a URL (older data): drop whatever sits before an "@" in what would be the authority.
    return raw.replace(/^([^/?#]*\/\/)[^/?#]*@/, "$1");
  }
}

/**
 * What a host, as `URL#hostname` gives it (lowercase; IPv4 as a dotted quad; IPv6 in brackets,
 * compressed, in hex), is. `localhost` is loopback by name (RFC 6761); no other name is judged,
 * since what it resolves to can change after pairing.
 */
export function peerHostKind(hostname: string): PeerHostKind {
  if (hostname === "localhost") {
    return "loopback";
  }
  const v4 = parseIpv4(hostname);
  if (v4) {
    return ipv4Kind(v4);
  }
  if (hostname.startsWith("[") && hostname.endsWith("]")) {
    const v6 = parseIpv6(hostname.slice(1, -1));
    return v6 ? ipv6Kind(v6) : "name";
  }
  return "name";
}

type Ipv4 = readonly [number, number, number, number];

function ipv4Kind([a, b]: Ipv4): PeerHostKind {
  if (a === 127) {
    return "loopback";
  }
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) {
    return "private";
  }
  if (a === 169 && b === 254) {
    return "link-local";
  }
  if (a === 0) {
    return "unspecified";
  }
  return "public";
}

/** The eight 16-bit groups of an IPv6 address. */
function ipv6Kind(groups: readonly number[]): PeerHostKind {
  const [g0 = 0, , , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const firstFiveZero = groups.slice(0, 5).every((group) => group === 0);
  if (firstFiveZero && g5 === 0xffff) {
    // IPv4-mapped (::ffff:a.b.c.d): the socket talks IPv4 to that address.
    return ipv4Kind([g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff]);
  }
  if (firstFiveZero && g5 === 0 && g6 === 0) {
    if (g7 === 1) {
      return "loopback";
    }
    return g7 === 0 ? "unspecified" : "ipv4-compatible";
  }
  if (firstFiveZero && g5 === 0) {
    return "ipv4-compatible";
  }
  if ((g0 & 0xfe00) === 0xfc00) {
    return "private"; // unique local fc00::/7
  }
  if ((g0 & 0xffc0) === 0xfe80) {
    return "link-local"; // fe80::/10
  }
  return "public";
}

function parseIpv4(host: string): Ipv4 | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^(0|[1-9]\d{0,2})$/.test(part) && Number(part) <= 255)) {
    return undefined;
  }
  return parts.map(Number) as unknown as Ipv4;
}

/** The URL parser's IPv6 serialisation: hex groups, at most one `::`, no dotted tail. */
function parseIpv6(text: string): number[] | undefined {
  const halves = text.split("::");
  if (halves.length > 2) {
    return undefined;
  }
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const head = groupsOf(halves[0]);
  const tail = groupsOf(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) {
    return undefined;
  }
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) {
    return undefined;
  }
  return all.map((group) => Number.parseInt(group, 16));
}
