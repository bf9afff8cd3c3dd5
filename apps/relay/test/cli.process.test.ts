import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RELAY_VERSION } from "../src/version";

const appDir = join(import.meta.dirname, "..");

/** `oar-relay …` as a real process: what it printed and how it exited. */
function oarRelay(args: readonly string[]) {
  return new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>(
    (resolve) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "--conditions=@oar/source", "src/cli.ts", ...args],
        { cwd: appDir, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" }, timeout: 60_000 },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    },
  );
}

// The commands' behaviour is tested in-process (cli-commands.test.ts); `start` with flags runs
// for real in CI's pack check and in start.process.test.ts. Here: the program itself.
describe("oar-relay, the command as a process (issue 33 item 2)", { timeout: 120_000 }, () => {
  it("--version prints the relay's version; --help names every command and the variables the flags stand for", async () => {
    const [version, help, startHelp] = await Promise.all([
      oarRelay(["--version"]),
      oarRelay(["--help"]),
      oarRelay(["start", "--help"]),
    ]);
    expect(version).toMatchObject({ code: 0, stdout: `${RELAY_VERSION}\n` });
    expect(help.code).toBe(0);
    for (const command of ["start", "migrate", "token", "doctor"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
    expect(help.stdout).toContain("--data-dir RELAY_DATA_DIR");
    for (const flag of ["--host", "--port", "--name", "--data-dir", "--database-url"]) {
      expect(startHelp.stdout).toContain(flag);
    }
  });

  it("an unknown command or a bad value is one clear line on stderr and exit 1", async () => {
    const [unknown, badPort] = await Promise.all([
      oarRelay(["frob"]),
      oarRelay(["start", "--port", "eighty"]),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.split("\n")[0]).toBe("error: unknown command 'frob'");
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toMatch(/^oar-relay: The relay's configuration is not valid:\n {2}RELAY_PORT: /);
    expect(badPort.stdout).toBe("");
  });
});
