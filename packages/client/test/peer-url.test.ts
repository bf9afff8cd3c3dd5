import { describe, expect, it } from "vitest";
import { checkPeerUrl, isLoopbackOrPrivateHost } from "../src/peer-url";

describe("R-HOP-06: paired relay addresses", () => {
  it.each([
    "https://build-box.example.com",
    "https://203.0.113.7:8443",
    "http://127.0.0.1:8787",
    "http://127.255.255.254",
    "http://localhost:8787",
    "http://[::1]:8787",
    "http://10.1.2.3",
    "http://172.16.0.1",
    "http://172.31.255.255",
    "http://192.168.1.20:8787",
    "http://169.254.10.10",
    "http://[fd12:3456::1]",
    "http://[fe80::1]",
  ])("accepts %s", (url) => {
    expect(checkPeerUrl(url).ok).toBe(true);
  });

  it.each([
    "http://build-box.example.com",
    "http://203.0.113.7",
    "http://172.15.255.255",
    "http://172.32.0.1",
    "http://192.169.0.1",
    "http://11.0.0.1",
    "http://[2001:db8::1]",
    "http://10.0.0.1.example.com",
  ])("refuses plain http to a public address: %s", (url) => {
    const result = checkPeerUrl(url);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain("must use https://");
    }
  });

  it("refuses something that is not a URL, or another scheme, with a clear message", () => {
    const notUrl = checkPeerUrl("build-box");
    expect(notUrl.ok).toBe(false);
    if (!notUrl.ok) {
      expect(notUrl.error).toContain("is not a URL");
    }
    const ftp = checkPeerUrl("ftp://10.0.0.1");
    expect(ftp.ok).toBe(false);
  });

  it("reads IPv4-mapped IPv6 loopback as loopback", () => {
    expect(isLoopbackOrPrivateHost("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackOrPrivateHost("::ffff:8.8.8.8")).toBe(false);
  });
});
