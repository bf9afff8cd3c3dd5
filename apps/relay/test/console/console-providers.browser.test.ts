import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pinnedClaudeBinary } from "@oar/providers/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedRelay, serveRelay } from "../support/served-relay";
import { openConsole, signIn, useBrowser } from "./browser";

const browser = useBrowser();

/**
 * Issue 31: the Start-a-conversation form offers a repository and a branch instead of a folder for
 * claude-cloud, and the API models once the owner gave them a key. What the form sends does not
 * depend on the store: PGlite only.
 */
describe("the console's Start-a-conversation form and the new kinds of provider", { timeout: 60_000 }, () => {
  let scratch: string;
  let served: ServedRelay;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "oar-console-providers-"));
    await mkdir(join(scratch, "work"));
    served = await serveRelay({
      dataDir: join(scratch, "data"),
      allowedRoots: [join(scratch, "work")],
      // Found, so claude-cloud is offered; no turn runs here, so the CLI never starts.
      env: { RELAY_CLAUDE_BIN: pinnedClaudeBinary() },
    });
  });
  afterAll(async () => {
    await served?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it("offers repository and branch for claude-cloud, and grok once it has a key", async () => {
    const { page } = await openConsole(browser(), served.base);
    await signIn(page);
    await page.getByRole("link", { name: "Conversations", exact: true }).click();
    await page.getByText("Start a conversation").click();
    const providers = () =>
      page
        .getByLabel("Provider")
        .locator("option")
        .evaluateAll((options) => options.map((option) => option.getAttribute("value") ?? ""));
    expect(await providers()).toContain("claude-cloud");
    expect(await providers()).not.toContain("grok");
    await expect.poll(() => page.getByLabel("Folder").isVisible()).toBe(true);
    await expect.poll(() => page.getByLabel("Repository").isVisible()).toBe(false);

    await page.getByLabel("Provider").selectOption("claude-cloud");
    await expect.poll(() => page.getByLabel("Folder").isVisible()).toBe(false);
    await page.getByLabel("Repository").fill("example-org/sample-repo");
    await page.getByLabel("Branch").fill("feature/banner");
    await page.getByLabel("Title").fill("On the repository");
    await page.getByRole("button", { name: "Start the conversation" }).click();
    await page.getByRole("heading", { name: "On the repository" }).waitFor();
    const id = decodeURIComponent(new URL(page.url()).hash.split("/")[2] ?? "");
    expect(await served.ownerJson("GET", `/v1/owner/sessions/${id}`)).toMatchObject({
      provider: "claude-cloud",
      repo: "example-org/sample-repo",
      branch: "feature/banner",
      cwd: null,
    });

    await served.ownerJson("PATCH", "/v1/owner/settings", {
      providers: { grok: { apiKey: "xai-test-key" } },
    });
    // A new view reads the providers again; the form's panel stays open from before.
    await page.getByRole("link", { name: "Conversations", exact: true }).click();
    await expect.poll(providers).toContain("grok");
    await page.getByLabel("Provider").selectOption("grok");
    await expect.poll(() => page.getByLabel("Folder").isVisible()).toBe(true);
    await expect.poll(() => page.getByLabel("Repository").isVisible()).toBe(false);
  });
});
