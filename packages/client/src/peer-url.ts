import { err, ok, type Result } from "@oar/core";

/**
 * R-HOP-06: a paired relay's address must be https://. Plain http:// is accepted only where the
 * traffic never leaves the machine or the private network: loopback and the private ranges.
 */
export function checkPeerUrl(raw: string): Result<URL, string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return err(
      `"${raw}" is not a URL. Give the paired relay's address, for example https://build-box.example.com.`,
    );
  }
  if (url.protocol === "https:") {
    return ok(url);
  }
  if (url.protocol !== "http:") {
    return err(`A paired relay's address must use https:// (got ${url.protocol}//).`);
  }
  if (isLoopbackOrPrivateHost(url.hostname)) {
    return ok(url);
  }
  return err(
    `A paired relay's address must use https://; plain http:// is accepted only for loopback and private network addresses (got ${url.hostname}).`,
  );
}

export function isLoopbackOrPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost")) {
    return true;
  }
  const v4 = parseIpv4(host.startsWith("::ffff:") ? host.slice(7) : host);
  if (v4) {
    const [a, b] = v4;
    return (
      a === 127 || // loopback 127.0.0.0/8
      a === 10 || // 10.0.0.0/8
      (a === 172 && b >= 16 && b <= 31) || // 172.16.0.0/12
      (a === 192 && b === 168) || // 192.168.0.0/16
      (a === 169 && b === 254) // link-local 169.254.0.0/16
    );
  }
  if (host.includes(":")) {
    return host === "::1" || /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
  }
  return false;
}

function parseIpv4(host: string): [number, number, number, number] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) {
    return undefined;
  }
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  return [a, b, c, d];
}
