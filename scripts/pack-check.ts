// CI's check that the packages work as published (issue 33): packs every package with pnpm,
// installs the tarballs with plain npm into an empty project outside the workspace, then runs the
// engine README's usage block there, type-checks a strict consumer (nodenext) against the
// published declarations, and starts the installed `oar-relay` on PGlite: /healthz and the console
// must answer. Run after `pnpm build`. Exits non-zero on the first failure, saying which.
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = join(import.meta.dirname, "..");
const packageDirs = [
  ...(await readdir(join(root, "packages"))).map((name) => join(root, "packages", name)),
  join(root, "apps", "relay"),
];
const TYPESCRIPT = "5.9.3";
const NODE_TYPES = "20.19.43";
// What a user never needs in a tarball.
const NOT_SHIPPED =
  /(^|\/)(src|test|tests|fixtures|__tests__)\/|\.test\.|tsconfig\.json$|vitest\.config|tsup\.config|_snapshot\.json$/;

function step(text: string): void {
  console.log(`\n--- ${text}`);
}

async function packAll(into: string): Promise<string[]> {
  for (const dir of packageDirs) {
    await run("pnpm", ["pack", "--pack-destination", into], { cwd: dir });
  }
  const tarballs = (await readdir(into))
    .filter((name) => name.endsWith(".tgz"))
    .map((name) => join(into, name));
  for (const tarball of tarballs) {
    const { stdout } = await run("tar", ["tzf", tarball]);
    const extra = stdout.split("\n").filter((path) => NOT_SHIPPED.test(path.replace(/^package\//, "")));
    if (extra.length > 0) {
      throw new Error(`${tarball} ships what no user needs:\n  ${extra.join("\n  ")}`);
    }
    if (!stdout.includes("package/LICENSE")) {
      throw new Error(`${tarball} has no LICENSE`);
    }
    console.log(`${tarball.split("/").at(-1)}: ${stdout.trim().split("\n").length} files`);
  }
  return tarballs;
}

/** The first ```ts block of the engine README's "Usage" section. */
async function engineUsage(): Promise<string> {
  const readme = await readFile(join(root, "packages", "engine", "README.md"), "utf8");
  const usage = readme.slice(readme.indexOf("## Usage"));
  const block = /```ts\n([\s\S]*?)```/.exec(usage)?.[1];
  if (block === undefined) {
    throw new Error("packages/engine/README.md has no ```ts block under ## Usage");
  }
  return block;
}

// A consumer of the libraries' types, as strict as TypeScript gets: it must compile against the
// declarations in the tarballs, not the workspace's sources.
const CONSUMER = `import type { RelayError } from "@oar/core";
import type { Engine, EngineDeps, Provider, SessionRecord } from "@oar/engine";
import { createScriptProvider } from "@oar/providers";
import { parseCall } from "@oar/schema";
import type { Storage } from "@oar/storage";

export function describeSession(session: SessionRecord): string {
  return \`\${session.id}: \${session.title} on \${session.provider}\`;
}
export const provider: Provider = createScriptProvider();
export type Parts = { readonly engine: Engine; readonly deps: EngineDeps; readonly storage: Storage; readonly error?: RelayError };
export const parsed = parseCall({ action: "relay_info" });
`;

async function consumerProject(tarballs: readonly string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "oar-consumer-"));
  await writeFile(
    join(dir, "package.json"),
    `${JSON.stringify({ name: "consumer", private: true, type: "module" })}\n`,
  );
  await run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--loglevel=error",
      ...tarballs,
      `typescript@${TYPESCRIPT}`,
      `@types/node@${NODE_TYPES}`,
    ],
    { cwd: dir, maxBuffer: 16 * 1024 * 1024 },
  );
  await mkdir(join(dir, "src"));
  await writeFile(join(dir, "src", "usage.ts"), await engineUsage());
  await writeFile(join(dir, "src", "consumer.ts"), CONSUMER);
  await writeFile(
    join(dir, "tsconfig.json"),
    `${JSON.stringify({
      compilerOptions: {
        module: "nodenext",
        moduleResolution: "nodenext",
        target: "es2022",
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        types: ["node"],
        outDir: "out",
      },
      include: ["src"],
    })}\n`,
  );
  return dir;
}

/** `npm install -g @oar/relay`, from its tarball alone, into a prefix of its own: where `oar-relay` lands. */
async function installGlobally(tarballs: readonly string[], prefix: string): Promise<string> {
  const relay = tarballs.find((tarball) => /oar-relay-[^/]*\.tgz$/.test(tarball));
  if (relay === undefined) {
    throw new Error("no tarball of @oar/relay");
  }
  await run(
    "npm",
    ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", relay],
    {
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return join(prefix, "bin", "oar-relay");
}

async function startInstalledRelay(bin: string, dir: string): Promise<void> {
  const dataDir = join(dir, "relay-data");
  const child = spawn(bin, ["start", "--port", "0", "--data-dir", dataDir], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "?")),
  );
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`oar-relay did not listen within 120 s:\n${output}`)),
        120_000,
      );
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      exited.then((code) => reject(new Error(`oar-relay exited (${code}) before it listened:\n${output}`)));
    });
    const health = (await (await fetch(`${base}/healthz`)).json()) as { ok?: boolean };
    if (health.ok !== true) {
      throw new Error(`/healthz answered ${JSON.stringify(health)}`);
    }
    const page = await fetch(`${base}/`);
    const html = await page.text();
    if (page.status !== 200 || !html.includes("<html")) {
      throw new Error(`the console answered ${page.status}: ${html.slice(0, 200)}`);
    }
    console.log(`oar-relay listened on ${base}: /healthz ok, console ${page.status}`);
  } finally {
    child.kill("SIGTERM");
  }
  const code = await exited;
  if (code !== 0) {
    throw new Error(`oar-relay exited ${code} on SIGTERM:\n${output}`);
  }
}

const packs = await mkdtemp(join(tmpdir(), "oar-packs-"));
let consumer: string | undefined;
try {
  step("pnpm pack, every package");
  const tarballs = await packAll(packs);
  step("npm install of the tarballs into an empty project");
  consumer = await consumerProject(tarballs);
  step(
    "strict consumer (nodenext) type-checks against the published declarations; the engine README's usage block compiles",
  );
  await run(join(consumer, "node_modules", ".bin", "tsc"), ["-p", "."], { cwd: consumer });
  step("the engine README's usage block runs");
  const { stdout } = await run(process.execPath, [join("out", "usage.js")], {
    cwd: consumer,
    timeout: 120_000,
  });
  if (!/ok: true/.test(stdout) || !/status: 'done'/.test(stdout) || !/text: 'hi'/.test(stdout)) {
    throw new Error(`the usage block printed:\n${stdout}`);
  }
  console.log(stdout.trim());
  step("npm install -g of @oar/relay's tarball alone; the installed oar-relay starts on PGlite");
  const bin = await installGlobally(tarballs, join(consumer, "global"));
  const { stdout: version } = await run(bin, ["--version"]);
  console.log(`oar-relay --version: ${version.trim()}`);
  await startInstalledRelay(bin, consumer);
  console.log("\npack check: ok");
} catch (cause) {
  const failure = cause as { message?: string; stdout?: string; stderr?: string };
  console.error(
    `\npack check FAILED: ${failure.message ?? String(cause)}${failure.stdout ? `\n${failure.stdout}` : ""}${failure.stderr ? `\n${failure.stderr}` : ""}`,
  );
  process.exitCode = 1;
} finally {
  await rm(packs, { recursive: true, force: true });
  if (consumer !== undefined) {
    await rm(consumer, { recursive: true, force: true });
  }
}
