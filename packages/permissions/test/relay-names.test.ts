import { describe, expect, it } from "vitest";
import { countsOnlyWithAt, isIpAddress, normalizeHost, resolveRelayRef } from "../src";

describe("relay names and hosts (§3.1)", () => {
  it.each([
    ["build-box.example.com", { host: "build-box.example.com", port: null }],
    ["Build-Box.Example.com:8443", { host: "build-box.example.com", port: 8443 }],
    ["https://ops@build-box.example.com.:8443/x?y#z", { host: "build-box.example.com", port: 8443 }],
    ["http://[::1]:7777/", { host: "::1", port: 7777 }],
    ["fe80::1", { host: "fe80::1", port: null }],
    ["", { host: "", port: null }],
  ])("normalizeHost(%j)", (input, expected) => {
    expect(normalizeHost(input)).toEqual(expected);
  });

  it("R-LOCK-02: IP addresses and localhost count only with @", () => {
    expect(isIpAddress("10.0.0.5")).toBe(true);
    expect(isIpAddress("256.0.0.1")).toBe(false);
    expect(isIpAddress("1.2.3")).toBe(false);
    expect(isIpAddress("::1")).toBe(true);
    expect(countsOnlyWithAt("LocalHost")).toBe(true);
    expect(countsOnlyWithAt("desk")).toBe(false);
  });

  const relays = {
    selfName: "Desk",
    paired: [
      { name: "build-box", host: "https://build-box.example.com:8443" },
      { name: "gpu-a", host: "gpu.example.org:9001" },
      { name: "gpu-b", host: "gpu.example.org:9002" },
    ],
  };

  it.each([
    ["this", { kind: "self" }],
    [" THIS ", { kind: "self" }],
    ["desk", { kind: "self" }],
    ["Build-Box", { kind: "paired", name: "build-box" }],
    ["build-box.example.com", { kind: "paired", name: "build-box" }],
    ["https://build-box.example.com:8443/", { kind: "paired", name: "build-box" }],
    ["build-box.example.com:9999", { kind: "unknown" }],
    ["gpu.example.org:9002", { kind: "paired", name: "gpu-b" }],
    ["gpu.example.org", { kind: "ambiguous", names: ["gpu-a", "gpu-b"] }],
    ["elsewhere", { kind: "unknown" }],
  ])("R-RLY-02/03: resolveRelayRef(%j)", (ref, expected) => {
    expect(resolveRelayRef(ref, relays)).toEqual(expected);
  });
});
