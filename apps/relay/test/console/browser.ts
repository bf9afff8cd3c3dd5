import { existsSync } from "node:fs";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { OWNER_TOKEN } from "../harness";

/** Debian's chromium (`apt-get install -y chromium`); CHROMIUM_PATH names another. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Root (CI) cannot use Chromium's sandbox; the pages are the relay's own. No GPU process: on a
 * loaded 2-core machine a GPU process that starts too slowly ends the whole browser.
 */
const LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu"];

/** Chromium's last lines on stderr, to say why it went away. */
const STDERR_LINES = 20;

/**
 * One headless Chromium for the test file, closed after it. A browser that went away between
 * tests (it crashed) is said on stderr, with its last lines, and launched again for the next test,
 * so one crash fails the test it happened in, not every test after it.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  let stderr: string[] = [];
  const launch = async () => {
    stderr = [];
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: LAUNCH_ARGS,
      logger: {
        isEnabled: (name) => name === "browser",
        log: (_name, _severity, message) => {
          stderr = [...stderr, String(message)].slice(-STDERR_LINES);
        },
      },
    });
  };
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `No Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH.`,
      );
    }
    await launch();
  });
  beforeEach(async () => {
    if (browser !== undefined && !browser.isConnected()) {
      process.stderr.write(`Chromium went away; launching it again. Its last lines:\n${stderr.join("\n")}\n`);
      await launch();
    }
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) {
      throw new Error("The browser exists only inside the file's tests.");
    }
    return browser;
  };
}

/** Every request the page made: its URL and whether it carried the owner token in its Authorization header. */
export interface SeenRequest {
  readonly url: string;
  readonly authorization: string | undefined;
}

export interface ConsolePage {
  readonly page: Page;
  readonly requests: SeenRequest[];
}

export interface ConsoleScreen {
  readonly viewport?: { readonly width: number; readonly height: number };
  /** A touch screen: the page can be tapped (`locator.tap()`). */
  readonly hasTouch?: boolean;
}

/** The phone the console is laid out for: 390 × 844, touch. */
export const PHONE: ConsoleScreen = { viewport: { width: 390, height: 844 }, hasTouch: true };

/** A new page at phone or desktop width on the relay at `base`, recording its requests. */
export async function openConsole(
  browser: Browser,
  base: string,
  { viewport = { width: 1200, height: 900 }, hasTouch = false }: ConsoleScreen = {},
): Promise<ConsolePage> {
  const context = await browser.newContext({ viewport, hasTouch, baseURL: base });
  const page = await context.newPage();
  const requests: SeenRequest[] = [];
  page.on("request", (request) => {
    requests.push({ url: request.url(), authorization: request.headers().authorization });
  });
  await page.goto("/");
  return { page, requests };
}

/** Signs in with the owner token and waits for the Inbox. */
export async function signIn(page: Page, token: string = OWNER_TOKEN): Promise<void> {
  await page.getByLabel("Owner token").fill(token);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { name: "Inbox", exact: true }).waitFor();
  await page.locator("#link-state[data-state=live]").waitFor();
}
