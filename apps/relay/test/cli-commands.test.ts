import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { silentLogger } from "@oar/core";
import { describe, expect, it, onTestFinished } from "vitest";
import { doctor } from "../src/cli/doctor";
import { migrateDatabase } from "../src/cli/migrate";
import { ownerTokenCommand } from "../src/cli/token";
import { createRelay } from "../src/compose";
import { type Env, loadConfigWithFlags } from "../src/config";

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oar-cli-"));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** The environment the commands read here: nothing of this shell's RELAY_* or DATABASE_URL. */
const env = (more: Env = {}): Env => ({
  HOME: tmpdir(),
  PATH: process.env.PATH,
  RELAY_ALLOWED_ROOTS: tmpdir(),
  ...more,
});

/** A port something else listens on, for as long as the test runs. */
async function takenPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as { port: number }).port;
}

/** A relay of this process on `dataDir` (holding it, as `oar-relay start` does), closed at the end. */
async function runningRelay(dataDir: string) {
  const relay = await createRelay(loadConfigWithFlags({ dataDir, name: "desk" }, env()), {
    logger: silentLogger,
  });
  onTestFinished(() => relay.close());
  return relay;
}

describe("oar-relay's commands (issue 33 item 2)", { timeout: 120_000 }, () => {
  it("migrate applies every migration once, then finds nothing to do; doctor then reads the database as migrated", async () => {
    const dataDir = join(await scratch(), "data");
    const config = loadConfigWithFlags({ dataDir }, env());
    expect(await migrateDatabase(config)).toMatch(
      /^PGlite in .*data is migrated: (\d+) migrations applied now, \1 of \1 in all \(latest \d{4}_\w+\)\.$/,
    );
    expect(await migrateDatabase(config)).toMatch(/is migrated: nothing to apply, (\d+) of \1 in all/);
    const checked = await doctor({ dataDir, port: "0" }, env());
    expect(checked.ok).toBe(true);
    expect(checked.text).toMatch(/^✓ Database: PGlite in .* answers and is migrated \((\d+) of \1, latest/m);
    expect(checked.text).toMatch(/^✓ Data directory: .* is writable and no relay holds it\.$/m);
    expect(checked.text).toMatch(/^✓ Port: 0: the relay takes any free port$/m);
  });

  it("doctor on a fresh machine: the directory and the database do not exist yet, which is fine", async () => {
    const dataDir = join(await scratch(), "new", "data");
    const checked = await doctor({ dataDir, port: "0" }, env());
    expect(checked.ok).toBe(true);
    expect(checked.text).toContain(`✓ Data directory: ${dataDir} does not exist yet; the relay creates it.`);
    expect(checked.text).toContain(
      `✓ Database: PGlite in ${dataDir} does not exist yet; the relay creates and migrates it.`,
    );
    await expect(stat(dataDir)).rejects.toThrow();
  });

  it("doctor: a port in use, a missing root and a Postgres that does not answer are ✗ with what to do; a missing agent CLI is not a failure", async () => {
    const dir = await scratch();
    const port = await takenPort();
    const checked = await doctor(
      { dataDir: join(dir, "data"), port: String(port), databaseUrl: "postgres://nobody@127.0.0.1:1/none" },
      env({
        RELAY_ALLOWED_ROOTS: `${dir}:${join(dir, "missing")}`,
        RELAY_CLAUDE_BIN: join(dir, "no-claude"),
      }),
    );
    expect(checked.ok).toBe(false);
    expect(checked.text).toContain(
      `✗ Port: 127.0.0.1:${port} is in use\n    → Stop what listens there, or choose another: --port or RELAY_PORT.`,
    );
    expect(checked.text).toContain(
      `✗ Allowed roots: not a folder here: ${join(dir, "missing")}\n    → Create it`,
    );
    expect(checked.text).toMatch(/^✗ Database: .*127\.0\.0\.1:1.*\n {4}→ Check DATABASE_URL/m);
    expect(checked.text).toContain(`– Claude Code: not found (its providers are listed as not configured)`);
    expect(checked.text).toMatch(/^✓ Configuration: relay "\S+" on 127\.0\.0\.1:\d+$/m);
  });

  it("doctor with a bad value says so in one ✗ and stops there", async () => {
    const checked = await doctor({ port: "eighty" }, env());
    expect(checked).toMatchObject({ ok: false });
    expect(checked.text).toMatch(
      /^✗ Configuration: The relay's configuration is not valid:\n {2}RELAY_PORT: /,
    );
  });

  it("doctor sees a data directory a running relay holds, and does not open its database", async () => {
    const dataDir = join(await scratch(), "data");
    await runningRelay(dataDir);
    const checked = await doctor({ dataDir, port: "0" }, env());
    expect(checked.ok).toBe(false);
    expect(checked.text).toContain(`✗ Data directory: ${dataDir} is in use by relay process ${process.pid}.`);
    expect(checked.text).toContain(
      `✓ Database: PGlite in ${dataDir} is open in relay process ${process.pid}`,
    );
  });

  it("token says where the owner token is; --rotate writes a new one, and the relay takes it once restarted", async () => {
    const dataDir = join(await scratch(), "data");
    const config = loadConfigWithFlags({ dataDir }, env());
    const path = join(dataDir, "owner-token");
    expect(await ownerTokenCommand(config, { rotate: false })).toBe(
      `No owner token yet: the relay makes one in ${path} when it first starts.`,
    );
    const first = await runningRelay(dataDir);
    const old = (await readFile(path, "utf8")).trim();
    expect(await ownerTokenCommand(config, { rotate: false })).toBe(
      `The owner token is kept in ${path} (readable by its owner only).`,
    );
    const rotated = await ownerTokenCommand(config, { rotate: true });
    const fresh = /^New owner token: (oar_owner_\S+)$/m.exec(rotated)?.[1] ?? "";
    expect(fresh).toMatch(/^oar_owner_/);
    expect(fresh).not.toBe(old);
    expect(rotated).toContain(
      `The old token stops working once the relay running on this data directory (process ${process.pid}) restarts: restart it now.`,
    );
    expect(((await stat(path)).mode & 0o777).toString(8)).toBe("600");

    await first.close();
    const again = await runningRelay(dataDir);
    const settings = async (token: string) =>
      (await again.app.request("/v1/owner/settings", { headers: { Authorization: `Bearer ${token}` } }))
        .status;
    expect(await settings(old)).toBe(401);
    expect(await settings(fresh)).toBe(200);
    await again.close();
    expect(await ownerTokenCommand(config, { rotate: true })).toContain(
      "The old token stops working now: no relay runs on this data directory, and the next one reads the new token.",
    );
  });

  it("token --rotate with RELAY_OWNER_TOKEN set is refused: the token is the environment's", async () => {
    const dataDir = join(await scratch(), "data");
    const config = loadConfigWithFlags(
      { dataDir },
      env({ RELAY_OWNER_TOKEN: "an-owner-token-of-the-environment" }),
    );
    expect(await ownerTokenCommand(config, { rotate: false })).toBe(
      "The owner token is set by RELAY_OWNER_TOKEN (this environment), not kept in a file.",
    );
    await expect(ownerTokenCommand(config, { rotate: true })).rejects.toMatchObject({
      code: "VALIDATION",
      message:
        "The owner token is set by RELAY_OWNER_TOKEN, not kept by the relay: change it there, then restart the relay.",
    });
    await expect(stat(join(dataDir, "owner-token"))).rejects.toThrow();
  });

  it("flags stand for their variables and win over them", () => {
    const config = loadConfigWithFlags(
      { port: "9001", host: "0.0.0.0", name: "from-flag", dataDir: "/tmp/x" },
      env({ RELAY_PORT: "1", RELAY_NAME: "from-env", RELAY_HOST: "127.0.0.1" }),
    );
    expect(config).toMatchObject({ port: 9001, host: "0.0.0.0", name: "from-flag", dataDir: "/tmp/x" });
    expect(loadConfigWithFlags({}, env({ RELAY_NAME: "from-env" })).name).toBe("from-env");
  });
});
