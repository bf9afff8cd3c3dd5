import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { RELAY_VERSION } from "../src/version";
import { spawnRelay, stopIfRunning } from "./process";

const appDir = join(import.meta.dirname, "..");

/** `oar-relay …` as a real process: what it printed and how it exited. */
function oarRelay(args: readonly string[], env: Record<string, string> = {}) {
  return new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>(
    (resolve) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "--conditions=@oar/source", "src/cli.ts", ...args],
        {
          cwd: appDir,
          env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
          timeout: 60_000,
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    },
  );
}

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oar-cli-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A port something else listens on, for as long as the test runs. */
async function takenPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

describe("oar-relay, the command (issue 33 item 2)", { timeout: 120_000 }, () => {
  it("--version prints the relay's version; --help names every command and the variables the flags stand for", async () => {
    expect(await oarRelay(["--version"])).toMatchObject({ code: 0, stdout: `${RELAY_VERSION}\n` });
    const help = await oarRelay(["--help"]);
    expect(help.code).toBe(0);
    for (const command of ["start", "migrate", "token", "doctor"]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    }
    expect(help.stdout).toContain("--data-dir RELAY_DATA_DIR");
    const startHelp = await oarRelay(["start", "--help"]);
    for (const flag of ["--host", "--port", "--name", "--data-dir", "--database-url"]) {
      expect(startHelp.stdout).toContain(flag);
    }
  });

  it("an unknown command or a bad value is one clear line on stderr and exit 1", async () => {
    const unknown = await oarRelay(["frob"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr.split("\n")[0]).toBe("error: unknown command 'frob'");
    const badPort = await oarRelay(["start", "--port", "eighty"]);
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toMatch(/^oar-relay: The relay's configuration is not valid:\n {2}RELAY_PORT: /);
    expect(badPort.stdout).toBe("");
  });

  it("migrate applies every migration once, then finds nothing to do; doctor then reads the database as migrated", async () => {
    const dir = join(await scratch(), "data");
    const first = await oarRelay(["migrate", "--data-dir", dir]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^PGlite in .*data is migrated: (\d+) migrations applied now, \1 of \1 in all \(latest \d{4}_\w+\)\.\n$/,
    );
    const second = await oarRelay(["migrate", "--data-dir", dir]);
    expect(second.stdout).toMatch(/is migrated: nothing to apply, (\d+) of \1 in all/);
    const doctor = await oarRelay(["doctor", "--data-dir", dir, "--port", "0"]);
    expect(doctor.code).toBe(0);
    expect(doctor.stdout).toMatch(/^✓ Database: PGlite in .* answers and is migrated \((\d+) of \1, latest/m);
    expect(doctor.stdout).toMatch(/^✓ Data directory: .* is writable and no relay holds it\.$/m);
  });

  it("doctor: a port in use, a missing root and a Postgres that does not answer are ✗ with what to do, and exit 1", async () => {
    const dir = await scratch();
    const port = await takenPort();
    const doctor = await oarRelay(
      [
        "doctor",
        "--data-dir",
        join(dir, "data"),
        "--port",
        String(port),
        "--database-url",
        "postgres://nobody@127.0.0.1:1/none",
      ],
      { RELAY_ALLOWED_ROOTS: `${dir}:${join(dir, "missing")}` },
    );
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `✗ Port: 127.0.0.1:${port} is in use\n    → Stop what listens there, or choose another: --port or RELAY_PORT.`,
    );
    expect(doctor.stdout).toContain(
      `✗ Allowed roots: not a folder here: ${join(dir, "missing")}\n    → Create it`,
    );
    expect(doctor.stdout).toMatch(/^✗ Database: .*127\.0\.0\.1:1.*\n {4}→ Check DATABASE_URL/m);
    expect(doctor.stdout).toMatch(/^✓ Configuration: relay "\S+" on 127\.0\.0\.1:\d+$/m);
    // A missing agent CLI is shown, not failed: the relay runs without it.
    expect(doctor.stdout).toMatch(/^(✓|–) Claude Code: /m);
  });

  it("start takes its flags in place of the variables; doctor then sees the directory held and the port in use", async () => {
    const dir = join(await scratch(), "data");
    const relay = spawnRelay({ RELAY_PORT: "1", RELAY_NAME: "from-env" }, [
      "--port",
      "0",
      "--name",
      "from-flag",
      "--data-dir",
      dir,
    ]);
    onTestFinished(() => stopIfRunning(relay));
    const base = await relay.listening;
    const health = (await (await fetch(`${base}/healthz`)).json()) as { name: string };
    expect(health.name).toBe("from-flag");
    expect((await stat(join(dir, "relay.pid"))).isFile()).toBe(true);
    const doctor = await oarRelay(["doctor", "--data-dir", dir, "--port", new URL(base).port]);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain(
      `✗ Data directory: ${dir} is in use by relay process ${relay.child.pid}.`,
    );
    expect(doctor.stdout).toContain(
      `✓ Database: PGlite in ${dir} is open in relay process ${relay.child.pid}`,
    );
    expect(doctor.stdout).toContain(`✗ Port: 127.0.0.1:${new URL(base).port} is in use`);
  });

  it("token says where the owner token is; --rotate writes a new one, and the running relay takes it once restarted", async () => {
    const dir = join(await scratch(), "data");
    expect((await oarRelay(["token", "--data-dir", dir])).stdout).toBe(
      `No owner token yet: the relay makes one in ${join(dir, "owner-token")} when it first starts.\n`,
    );
    const relay = spawnRelay({}, ["--data-dir", dir]);
    onTestFinished(() => stopIfRunning(relay));
    const base = await relay.listening;
    const old = (await readFile(join(dir, "owner-token"), "utf8")).trim();
    expect((await oarRelay(["token", "--data-dir", dir])).stdout).toBe(
      `The owner token is kept in ${join(dir, "owner-token")} (readable by its owner only).\n`,
    );
    const rotated = await oarRelay(["token", "--rotate", "--data-dir", dir]);
    expect(rotated.code).toBe(0);
    const fresh = /^New owner token: (oar_owner_\S+)$/m.exec(rotated.stdout)?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(old);
    expect(rotated.stdout).toContain(
      `The old token stops working once the relay running on this data directory (process ${relay.child.pid}) restarts: restart it now.`,
    );
    expect(((await stat(join(dir, "owner-token"))).mode & 0o777).toString(8)).toBe("600");

    relay.child.kill("SIGTERM");
    await relay.exited;
    const restarted = spawnRelay({}, ["--data-dir", dir]);
    onTestFinished(() => stopIfRunning(restarted));
    const again = await restarted.listening;
    const settings = (token: string) =>
      fetch(`${again}/v1/owner/settings`, { headers: { Authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    expect(await settings(old)).toBe(401);
    expect(await settings(fresh ?? "")).toBe(200);
    expect(base).toMatch(/^http:/);
  });

  it("token --rotate with RELAY_OWNER_TOKEN set is refused in one line: the token is the environment's", async () => {
    const dir = join(await scratch(), "data");
    const refused = await oarRelay(["token", "--rotate", "--data-dir", dir], {
      RELAY_OWNER_TOKEN: "an-owner-token-of-the-environment",
    });
    expect(refused).toMatchObject({
      code: 1,
      stderr:
        "oar-relay: The owner token is set by RELAY_OWNER_TOKEN, not kept by the relay: change it there, then restart the relay.\n",
    });
    await expect(stat(join(dir, "owner-token"))).rejects.toThrow();
  });
});
