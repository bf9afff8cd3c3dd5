import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { freePort } from "./free-port";

const run = promisify(execFile);

/** The response header that names the member that served a request (HAProxy's server name). */
export const SERVED_BY_HEADER = "x-served-by";

export interface BalancedServer {
  readonly name: string;
  readonly port: number;
}

export interface Balancer {
  readonly port: number;
  /** The one address agents and the owner use. */
  readonly base: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

async function haproxyVersion(): Promise<string | null> {
  try {
    const { stdout } = await run("haproxy", ["-v"]);
    const version = /version (\d+\.\d+\.\d+)/.exec(stdout)?.[1];
    return version === undefined ? "HAProxy" : `HAProxy ${version}`;
  } catch {
    return null;
  }
}

/**
 * HAProxy's version line, installed first with Debian's apt-get when it is missing and this runs
 * as root (as .ci/run installs Postgres and Chromium); anywhere else it says what to do.
 */
export async function ensureHaproxy(log: (line: string) => void): Promise<string> {
  const found = await haproxyVersion();
  if (found !== null) {
    return found;
  }
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) {
    throw new Error(
      "The soak needs HAProxy in front of its relays: install it (Debian: apt-get install -y haproxy).",
    );
  }
  log("installing Debian's haproxy (apt-get)");
  // `env` sets the one variable apt needs without handing this process's environment on by name.
  await run("env", ["DEBIAN_FRONTEND=noninteractive", "apt-get", "update", "-qq"]);
  await run("env", ["DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "haproxy"]);
  const installed = await haproxyVersion();
  if (installed === null) {
    throw new Error(
      "apt-get installed haproxy, but `haproxy -v` still does not run (is /usr/sbin on PATH?).",
    );
  }
  return installed;
}

/**
 * The configuration: HTTP mode, round robin over the servers, health checks on `healthPath` every
 * second (a member is out after 2 failures, back after 2 successes). Timeouts are long on both
 * sides so a long poll (a `wait` of minutes, written to every 25 s) and the owner's event stream
 * pass through; a request is retried on another server only when its connection failed, so a
 * prompt is never sent twice by the balancer.
 */
function configuration(port: number, servers: readonly BalancedServer[], healthPath: string): string {
  return [
    "global",
    "  maxconn 4096",
    "",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout check 2s",
    "  timeout client 1h",
    "  timeout server 1h",
    "  timeout tunnel 1h",
    "  timeout http-request 30s",
    "  timeout http-keep-alive 30s",
    "  retries 2",
    "  option redispatch 1",
    "",
    "frontend relay",
    `  bind 127.0.0.1:${port}`,
    "  default_backend members",
    "",
    "backend members",
    "  balance roundrobin",
    `  option httpchk GET ${healthPath}`,
    "  http-check expect status 200",
    "  default-server inter 1s fall 2 rise 2",
    `  http-response set-header ${SERVED_BY_HEADER} %[srv_name]`,
    ...servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`),
    "",
  ].join("\n");
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * HAProxy in the foreground, its configuration and log in `dir`, in front of `servers` (each a
 * loopback port); resolves once its frontend accepts connections.
 */
export async function startHaproxy(options: {
  readonly dir: string;
  readonly servers: readonly BalancedServer[];
  readonly healthPath: string;
}): Promise<Balancer> {
  const port = await freePort();
  const config = join(options.dir, "haproxy.cfg");
  await writeFile(config, configuration(port, options.servers, options.healthPath));
  const log = createWriteStream(join(options.dir, "haproxy.log"));
  const child = spawn("haproxy", ["-db", "-f", config], { stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = once(child, "exit");
  for (let attempt = 0; !(await accepts(port)); attempt++) {
    if (child.exitCode !== null || attempt > 100) {
      child.kill("SIGKILL");
      throw new Error(`haproxy did not start; see ${join(options.dir, "haproxy.log")}`);
    }
    await sleep(100);
  }
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await exited;
      }
      log.end();
    },
  };
}
