import { describe, expect, it } from "vitest";
import { loadConsoleAssets } from "../../src/console-assets";
import { createTestRelay } from "../harness";

describe("the console's files", () => {
  it("are small (the page's own JS and CSS under 100 KB) and need nothing from elsewhere", () => {
    const assets = loadConsoleAssets();
    expect([...assets.keys()].sort()).toEqual(
      expect.arrayContaining(["app.js", "console.css", "index.html"]),
    );
    const bytes = [...assets.values()].reduce((sum, asset) => sum + Buffer.byteLength(asset.body), 0);
    expect(bytes).toBeLessThan(100 * 1024);
    for (const [name, asset] of assets) {
      // No CDN, no remote font: every address a file names is this relay's own.
      expect(asset.body, name).not.toMatch(/(src|href)=["']https?:/);
      expect(asset.body, name).not.toMatch(/(import|from)\s*["']https?:/);
    }
  });

  it("are served at / and /console/<file> without the token, locked to this relay by their headers", {
    timeout: 30_000,
  }, async () => {
    const { relay } = await createTestRelay();
    const page = await relay.app.request("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(page.headers.get("content-security-policy")).toContain("connect-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/console/app.js">');
    const script = await relay.app.request("/console/app.js");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const missing = await relay.app.request("/console/nope.js");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ ok: false, code: "REMOTE_RELAY_NOT_FOUND" });
    // The data stays behind the owner token.
    expect((await relay.app.request("/v1/owner/sessions")).status).toBe(401);
  });
});
