import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { startTcpProxy, type TcpProxy } from "@oar/storage/testing";
import { freePort } from "./free-port";
import { type Balancer, SERVED_BY_HEADER, startHaproxy } from "./haproxy";
import { LISTENING_RE, RELAY_CLI, RELAY_NODE_ARGS } from "./relay-process";
import { canSeparateHosts, onItsOwnHost } from "./separate-hosts";

/** One run of a member's process, from its start to its exit. */
export interface MemberInstance {
  readonly pid: number;
  readonly startedAt: number;
  listeningAt: number | null;
  exitedAt: number | null;
}

/**
 * One relay process of the cluster, as if on its own host: its own data and temp folders, its own
 * link to Postgres (`databaseLink`, a TCP proxy that can be cut or frozen) and the balancer's own
 * link to it (`balancerLink`). It comes back on the same port and data directory after a kill.
 */
export interface ClusterMember {
  readonly index: number;
  /** Its host name and the balancer's name for it (the served-by header). */
  readonly name: string;
  readonly port: number;
  readonly dataDir: string;
  /** Its TMPDIR, under its host folder. */
  readonly tmpDir: string;
  /** Every process of it writes its output here, one after the other. */
  readonly logFile: string;
  readonly databaseLink: TcpProxy;
  readonly balancerLink: TcpProxy;
  readonly instances: readonly MemberInstance[];
  /** The running process's pid; undefined while it is down. */
  pid(): number | undefined;
  /** Starts it (again) and resolves once it listens. */
  start(): Promise<MemberInstance>;
  /** kill -9; returns the pid killed, or undefined when it was down. */
  kill(): number | undefined;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface RelayCluster {
  readonly members: readonly ClusterMember[];
  readonly balancer: Balancer;
  /** The balancer's address: the one address of the cluster. */
  readonly base: string;
  /** Whether each member runs in its own mount and UTS namespaces (`separate-hosts.ts`). */
  readonly separateHosts: boolean;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly processes: number;
  /** The database every member shares, reached by each through its own proxy. */
  readonly databaseUrl: string;
  /** A folder of the run's own: `<dir>/<member>/` is each member's host folder, the balancer's files beside. */
  readonly dir: string;
  /** The members' environment: RELAY_NAME, RELAY_OWNER_TOKEN, RELAY_ALLOWED_ROOTS and what the caller adds. */
  readonly env: Readonly<Record<string, string>>;
  /** Node options after `--import tsx` (a preload, for instance). */
  readonly nodeArgs?: readonly string[];
  /** Separate hosts when this machine allows it (default); false runs plain processes. */
  readonly separateHosts?: boolean;
}

const STOP_GRACE_MS = 20_000;

function databaseLinkUrl(databaseUrl: string, port: number): string {
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return url.toString();
}

async function startMember(
  index: number,
  options: ClusterOptions,
  hostDirs: readonly string[],
  separate: boolean,
): Promise<ClusterMember> {
  const name = `relay-${index}`;
  const hostDir = hostDirs[index] ?? join(options.dir, name);
  const dataDir = join(hostDir, "data");
  const tmpDir = join(hostDir, "tmp");
  await mkdir(dataDir, { recursive: true });
  await mkdir(tmpDir, { recursive: true });
  const port = await freePort();
  const database = new URL(options.databaseUrl);
  const databaseLink = await startTcpProxy({
    host: database.hostname,
    port: Number(database.port || 5432),
  });
  const balancerLink = await startTcpProxy({ host: "127.0.0.1", port });
  const logFile = join(hostDir, "relay.log");
  const log = createWriteStream(logFile, { flags: "a" });
  const instances: MemberInstance[] = [];
  let child: ChildProcess | undefined;

  const command = [
    process.execPath,
    ...RELAY_NODE_ARGS,
    "--import",
    "tsx",
    "--conditions=@oar/source",
    ...(options.nodeArgs ?? []),
    RELAY_CLI,
    "start",
  ];
  const env = {
    // Not this shell's environment: a DATABASE_URL or RELAY_* set there would redirect the run.
    HOME: homedir(),
    TMPDIR: tmpDir,
    ...options.env,
    RELAY_HOST: "127.0.0.1",
    RELAY_PORT: String(port),
    RELAY_DATA_DIR: dataDir,
    DATABASE_URL: databaseLinkUrl(options.databaseUrl, databaseLink.port),
  };

  const start = async (): Promise<MemberInstance> => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      throw new Error(`${name} is already running`);
    }
    const others = hostDirs.filter((_, i) => i !== index);
    const { file, args } = separate
      ? onItsOwnHost(name, others, command)
      : { file: command[0] ?? process.execPath, args: command.slice(1) };
    log.write(`\n--- ${new Date().toISOString()} start\n`);
    const started = spawn(file, args, {
      cwd: join(import.meta.dirname, ".."),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = started;
    if (started.pid === undefined) {
      throw new Error(`${name} did not start`);
    }
    const instance: MemberInstance = {
      pid: started.pid,
      startedAt: Date.now(),
      listeningAt: null,
      exitedAt: null,
    };
    instances.push(instance);
    started.stderr?.pipe(log, { end: false });
    const exited = once(started, "exit").then(([code, signal]) => {
      instance.exitedAt = Date.now();
      log.write(`--- ${new Date().toISOString()} exit ${code ?? signal}\n`);
      return `${name} exited (${code ?? signal}) before it listened; see ${logFile}`;
    });
    // Every line goes to the log for the process's whole life (a full pipe would block it).
    const listening = new Promise<null>((resolve) => {
      const lines = createInterface({ input: started.stdout as NodeJS.ReadableStream });
      lines.on("line", (line) => {
        log.write(`${line}\n`);
        if (instance.listeningAt === null && LISTENING_RE.test(line)) {
          instance.listeningAt = Date.now();
          resolve(null);
        }
      });
    });
    const failure = await Promise.race([listening, exited]);
    if (failure !== null) {
      throw new Error(failure);
    }
    return instance;
  };

  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const member: ClusterMember = {
    index,
    name,
    port,
    dataDir,
    tmpDir,
    logFile,
    databaseLink,
    balancerLink,
    instances,
    pid: () => (running() ? child?.pid : undefined),
    start,
    kill() {
      const pid = member.pid();
      if (pid !== undefined) {
        process.kill(pid, "SIGKILL");
      }
      return pid;
    },
    async stop(graceMs = STOP_GRACE_MS) {
      const current = child;
      if (current === undefined || !running()) {
        return;
      }
      const exit = once(current, "exit");
      current.kill("SIGTERM");
      const timer = setTimeout(() => current.kill("SIGKILL"), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
  return member;
}

/**
 * N relay processes on one Postgres database (DESIGN §9: one RELAY_NAME, one owner token, a data
 * directory each), each through its own TCP proxy to the database, behind HAProxy. The first
 * starts alone (it applies the migrations of a new database), the others together; resolves once
 * the balancer has routed a health check to every member.
 */
export async function startRelayCluster(options: ClusterOptions): Promise<RelayCluster> {
  const separate = options.separateHosts !== false && (await canSeparateHosts());
  const hostDirs = Array.from({ length: options.processes }, (_, i) => join(options.dir, `relay-${i}`));
  for (const dir of hostDirs) {
    await mkdir(dir, { recursive: true });
  }
  const members: ClusterMember[] = [];
  let balancer: Balancer | undefined;
  const stopAll = async () => {
    await Promise.all(members.map((member) => member.stop()));
    await balancer?.stop();
    for (const member of members) {
      await member.balancerLink.close();
      await member.databaseLink.close();
    }
  };
  try {
    for (let i = 0; i < options.processes; i++) {
      members.push(await startMember(i, options, hostDirs, separate));
    }
    await members[0]?.start();
    await Promise.all(members.slice(1).map((member) => member.start()));
    balancer = await startHaproxy({
      dir: options.dir,
      healthPath: "/healthz",
      servers: members.map((member) => ({ name: member.name, port: member.balancerLink.port })),
    });
    await untilEveryMemberServes(balancer.base, members);
  } catch (error) {
    await stopAll();
    throw error;
  }
  const started = balancer;
  return {
    members,
    balancer: started,
    base: started.base,
    separateHosts: separate,
    stop: stopAll,
  };
}

/** Health checks through the balancer until each member has answered one (it counts as up). */
async function untilEveryMemberServes(base: string, members: readonly ClusterMember[]): Promise<void> {
  const seen = new Set<string>();
  const deadline = Date.now() + 60_000;
  while (seen.size < members.length) {
    if (Date.now() > deadline) {
      const missing = members.filter((member) => !seen.has(member.name)).map((member) => member.name);
      throw new Error(`the balancer never routed to ${missing.join(", ")}`);
    }
    try {
      const response = await fetch(`${base}/healthz`);
      await response.text();
      const by = response.headers.get(SERVED_BY_HEADER);
      if (response.ok && by !== null) {
        seen.add(by);
      }
    } catch {
      // Not up yet.
    }
    await sleep(200);
  }
}
