// The owner console's tests run in a real Chromium (Debian's `chromium`). On a fresh Debian
// machine run as root, the test command installs it; anywhere else it says what to do.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

if (!existsSync(CHROMIUM)) {
  const canInstall = process.getuid?.() === 0 && existsSync("/usr/bin/apt-get");
  if (!canInstall) {
    console.error(
      `The console's browser tests need Chromium at ${CHROMIUM}: install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
    process.exit(1);
  }
  console.log("Installing Debian's chromium for the console's browser tests…");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env });
}
