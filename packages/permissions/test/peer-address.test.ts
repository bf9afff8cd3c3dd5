import { describe, expect, it } from "vitest";
import { peerAddressForDisplay, peerAddressProblem, peerAddressRule, peerHostKind } from "../src";

// R-HOP-06 and DESIGN §7. Each row: an address as the owner types it, what the rule must say
// ("ok", or the words its refusal must hold), and why (what WHATWG URL, which fetch also uses,
// turns that host into).
const HTTPS_ONLY = "plain http:// is accepted only for loopback and private network addresses";
const LINK_LOCAL = "link-local";
const CREDENTIALS = "credentials do not belong in a paired relay's address";

const TABLE: readonly (readonly [url: string, expected: string, why: string])[] = [
  // https:// goes anywhere TLS can check.
  ["https://build-box.example.com", "ok", "https, a host name"],
  ["https://203.0.113.7:8443", "ok", "https, a public address"],
  ["https://169.254.10.10", "ok", "https, even link-local"],
  ["https://[fe80::1]", "ok", "https, even link-local"],
  // Loopback.
  ["http://127.0.0.1:8787", "ok", "127/8"],
  ["http://127.255.255.254", "ok", "127/8"],
  ["http://localhost:8787", "ok", "localhost"],
  ["http://LOCALHOST", "ok", "URL lowercases the host"],
  ["http://[::1]:8787", "ok", "::1"],
  ["http://[0:0:0:0:0:0:0:1]", "ok", "::1 written out"],
  ["http://2130706433/", "ok", "decimal: URL reads 127.0.0.1"],
  ["http://0x7f.1/", "ok", "hex and short: URL reads 127.0.0.1"],
  ["http://0177.0.0.1/", "ok", "octal: URL reads 127.0.0.1"],
  ["http://127.1/", "ok", "short form: 127.0.0.1"],
  ["http://127.0.0.1./", "ok", "trailing dot: 127.0.0.1"],
  ["http://[::ffff:127.0.0.1]", "ok", "IPv4-mapped loopback, which URL writes ::ffff:7f00:1"],
  // Private ranges.
  ["http://10.1.2.3", "ok", "10/8"],
  ["http://012.1.2.3", "ok", "octal 012 = 10: 10.1.2.3"],
  ["http://172.16.0.1", "ok", "172.16/12, low end"],
  ["http://172.31.255.255", "ok", "172.16/12, high end"],
  ["http://192.168.1.20:8787", "ok", "192.168/16"],
  ["http://[fd12:3456::1]", "ok", "unique local fc00::/7 (fd)"],
  ["http://[fc00::1]", "ok", "unique local fc00::/7 (fc)"],
  ["http://[::ffff:10.0.0.1]", "ok", "IPv4-mapped private"],
  // Link-local is not private.
  ["http://169.254.10.10", LINK_LOCAL, "169.254/16"],
  ["http://169.254.169.254/", LINK_LOCAL, "169.254/16, the cloud metadata address"],
  ["http://2852039166/", LINK_LOCAL, "decimal 169.254.169.254"],
  ["http://0xa9.0xfe.1.1/", LINK_LOCAL, "hex 169.254.1.1"],
  ["http://[fe80::1]", LINK_LOCAL, "fe80::/10"],
  ["http://[FE80::1]:8787", LINK_LOCAL, "fe80::/10, upper case"],
  ["http://[febf:ffff::1]", LINK_LOCAL, "fe80::/10, high end"],
  ["http://[::ffff:169.254.0.1]", LINK_LOCAL, "IPv4-mapped link-local, which URL writes ::ffff:a9fe:1"],
  ["http://[::ffff:a9fe:1]", LINK_LOCAL, "the same, in URL's own hex form"],
  // Public, or not an address at all.
  ["http://build-box.example.com", HTTPS_ONLY, "a name: it resolves to anything"],
  ["http://relay.localhost", HTTPS_ONLY, "only localhost itself is loopback by name"],
  ["http://localhost./", HTTPS_ONLY, "not the name localhost"],
  ["http://10.0.0.1.example.com", HTTPS_ONLY, "a name that starts like an address"],
  ["http://203.0.113.7", HTTPS_ONLY, "public"],
  ["http://8.8.8.8", HTTPS_ONLY, "public"],
  ["http://11.0.0.1", HTTPS_ONLY, "just outside 10/8"],
  ["http://172.15.255.255", HTTPS_ONLY, "just below 172.16/12"],
  ["http://172.32.0.1", HTTPS_ONLY, "just above 172.16/12"],
  ["http://192.169.0.1", HTTPS_ONLY, "just outside 192.168/16"],
  ["http://169.253.255.255", HTTPS_ONLY, "just below 169.254/16"],
  ["http://100.64.0.1", HTTPS_ONLY, "shared address space is not private"],
  ["http://0.0.0.0:8787", HTTPS_ONLY, "unspecified"],
  ["http://0/", HTTPS_ONLY, "URL reads 0.0.0.0"],
  ["http://[::]", HTTPS_ONLY, "unspecified"],
  ["http://[::7f00:1]", HTTPS_ONLY, "obsolete IPv4-compatible form, not loopback"],
  ["http://[::127.0.0.1]", HTTPS_ONLY, "the same, written dotted"],
  ["http://[fec0::1]", HTTPS_ONLY, "deprecated site-local is not unique local"],
  ["http://[2001:db8::1]", HTTPS_ONLY, "global IPv6"],
  ["http://[::ffff:8.8.8.8]", HTTPS_ONLY, "IPv4-mapped public"],
  ["http://224.0.0.1", HTTPS_ONLY, "multicast"],
  ["http://255.255.255.255", HTTPS_ONLY, "broadcast"],
  ["http://127.0.0.1%2f@evil.example", CREDENTIALS, "the host is evil.example; the rest is a user name"],
  // Credentials never belong in the address, whatever the scheme or host.
  ["https://user:password@build-box.example.com", CREDENTIALS, "user and password"],
  ["https://user@build-box.example.com", CREDENTIALS, "user only"],
  ["https://:password@build-box.example.com", CREDENTIALS, "password only"],
  ["http://ops@127.0.0.1:8787", CREDENTIALS, "loopback does not excuse it"],
  ["https://@build-box.example.com", "ok", "an empty user info holds nothing: URL drops it"],
  // Not an http(s) URL.
  ["build-box", "is not a URL", "no scheme"],
  ["", "is not a URL", "empty"],
  ["http://999.1.1.1", "is not a URL", "URL refuses an IPv4 part over 255"],
  ["http://[fe80::1%25eth0]", "is not a URL", "URL refuses zone ids"],
  ["ftp://10.0.0.1", "must use https://", "another scheme"],
  ["file:///etc/passwd", "must use https://", "another scheme"],
];

describe("R-HOP-06: a paired relay's address", () => {
  it.each(TABLE)("%s → %s (%s)", (url, expected) => {
    const problem = peerAddressProblem(url);
    if (expected === "ok") {
      expect(problem).toBeNull();
    } else {
      expect(problem).toContain(expected);
    }
  });

  it("the owner API's form refuses with REMOTE_RELAY_INVALID_INPUT naming url", () => {
    expect(peerAddressRule("https://build-box.example.com")).toEqual({ kind: "allow" });
    const refused = peerAddressRule("http://169.254.10.10");
    expect(refused).toMatchObject({ kind: "refuse", code: "REMOTE_RELAY_INVALID_INPUT" });
    expect(refused.kind === "refuse" && refused.message).toMatch(/^url: .*https:\/\/.*link-local/);
  });

  it("DESIGN §7: a refusal never repeats a password the address held", () => {
    for (const url of [
      "https://ops:hunter2@build-box.example.com",
      "http://ops:hunter2@203.0.113.7",
      "https://ops:hunter2@",
      "ftp://ops:hunter2@build-box.example.com",
    ]) {
      const problem = peerAddressProblem(url);
      expect(problem, url).not.toBeNull();
      expect(problem, url).not.toContain("hunter2");
    }
  });

  it("reads hosts as URL#hostname gives them", () => {
    expect(peerHostKind("localhost")).toBe("loopback");
    expect(peerHostKind("127.0.0.1")).toBe("loopback");
    expect(peerHostKind("[::1]")).toBe("loopback");
    expect(peerHostKind("[::ffff:7f00:1]")).toBe("loopback");
    expect(peerHostKind("192.168.0.1")).toBe("private");
    expect(peerHostKind("[fd00::1]")).toBe("private");
    expect(peerHostKind("169.254.0.1")).toBe("link-local");
    expect(peerHostKind("[fe80::1]")).toBe("link-local");
    expect(peerHostKind("0.0.0.0")).toBe("unspecified");
    expect(peerHostKind("[::]")).toBe("unspecified");
    expect(peerHostKind("8.8.8.8")).toBe("public");
    expect(peerHostKind("build-box.example.com")).toBe("name");
    // Not forms URL#hostname produces: never taken for an address.
    expect(peerHostKind("010.0.0.1")).toBe("name");
    expect(peerHostKind("::1")).toBe("name");
    expect(peerHostKind("[1::2::3]")).toBe("name");
  });
});

describe("DESIGN §7: a peer's address as it is shown", () => {
  it.each([
    ["https://ops:hunter2@build-box.example.com", "https://build-box.example.com/"],
    ["https://ops@build-box.example.com:8443/relay", "https://build-box.example.com:8443/relay"],
    ["http://:hunter2@10.0.0.5:8787", "http://10.0.0.5:8787/"],
    ["https://ops:hunter2@", "https://"],
  ])("%s is shown as %s", (stored, displayed) => {
    expect(peerAddressForDisplay(stored)).toBe(displayed);
  });

  it("an address without credentials is shown exactly as stored", () => {
    for (const url of ["https://build-box.test", "http://127.0.0.1:8787/relay/", "not a url"]) {
      expect(peerAddressForDisplay(url)).toBe(url);
    }
  });
});
