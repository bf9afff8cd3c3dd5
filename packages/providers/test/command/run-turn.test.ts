import { chmod, realpath, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CommandScripts, SESSION, startTurn, writeCommandScripts } from "./command-fixtures";

const NODE = process.execPath;
let scripts: CommandScripts;

beforeAll(async () => {
  scripts = await writeCommandScripts();
});

afterAll(async () => {
  await scripts.remove();
});

interface ProbeReport {
  readonly argv: string[];
  readonly cwd: string;
  readonly stdin: string;
  readonly env: Record<string, string>;
}

async function probeReport(run: ReturnType<typeof startTurn>): Promise<ProbeReport> {
  const outcome = await run.outcome;
  if (outcome.status !== "done") {
    throw new Error(`the probe did not finish: ${JSON.stringify(outcome)}`);
  }
  return JSON.parse(outcome.reply) as ProbeReport;
}

describe("command provider: a turn (DESIGN §5)", { timeout: 20_000 }, () => {
  it("fills {model}, {effort}, {session} and {cwd}, inside items too", async () => {
    const command = [
      NODE,
      scripts.probe,
      "{model}",
      "--effort={effort}",
      "{session}",
      "in:{cwd}",
      "plain",
    ] as const;
    const report = await probeReport(
      startTurn(
        { command: [...command], models: ["m1", "m2"] },
        { input: { model: "m2", effort: "high", cwd: scripts.dir } },
      ),
    );
    expect(report.argv).toEqual(["m2", "--effort=high", SESSION.id, `in:${scripts.dir}`, "plain"]);
    const noEffort = await probeReport(
      startTurn({ command: [...command], models: ["m1"] }, { input: { cwd: scripts.dir } }),
    );
    expect(noEffort.argv).toEqual(["m1", "--effort=", SESSION.id, `in:${scripts.dir}`, "plain"]);
  });

  it("does not fill a value again that itself looks like a placeholder", async () => {
    const report = await probeReport(
      startTurn(
        { command: [NODE, scripts.probe, "{model}/{effort}"], models: ["m1"] },
        { input: { effort: "{model}" } },
      ),
    );
    expect(report.argv).toEqual(["m1/{model}"]);
  });

  it("writes the prompt to stdin and closes it", async () => {
    const prompt = "Fix the build.\nThen say é ✓ done.\n";
    const report = await probeReport(
      startTurn({ command: [NODE, scripts.probe], models: ["m1"] }, { input: { prompt } }),
    );
    expect(report.stdin).toBe(prompt);
  });

  it("ends done when the program does not read a large prompt (EPIPE is no failure)", async () => {
    const run = startTurn(
      { command: ["sh", "-c", "echo ignored the prompt"], models: ["m1"] },
      {
        input: { prompt: "x".repeat(1024 * 1024) },
      },
    );
    expect(await run.outcome).toEqual({ status: "done", reply: "ignored the prompt" });
  });

  it("runs in the turn's cwd, else the relay's own", async () => {
    const inDir = await probeReport(
      startTurn({ command: [NODE, scripts.probe], models: ["m1"] }, { input: { cwd: scripts.dir } }),
    );
    expect(await realpath(inDir.cwd)).toBe(await realpath(scripts.dir));
    const inRelay = await probeReport(startTurn({ command: [NODE, scripts.probe], models: ["m1"] }));
    expect(await realpath(inRelay.cwd)).toBe(await realpath(process.cwd()));
  });

  it("gives the command OAR_SESSION, OAR_RELAY_URL and OAR_AGENT_TOKEN with agent access, on top of the env option", async () => {
    const report = await probeReport(
      startTurn(
        { command: [NODE, scripts.probe], models: ["m1"] },
        {
          env: { PATH: process.env.PATH, FROM_OPTIONS: "yes" },
          access: { url: "http://127.0.0.1:8787", sessionId: SESSION.id, token: "oat_secret" },
        },
      ),
    );
    expect(report.env).toEqual({
      OAR_SESSION: SESSION.id,
      OAR_RELAY_URL: "http://127.0.0.1:8787",
      OAR_AGENT_TOKEN: "oat_secret",
      FROM_OPTIONS: "yes",
    });
  });

  it("gives only OAR_SESSION without agent access, dropping a relay URL or token the env held", async () => {
    const report = await probeReport(
      startTurn(
        { command: [NODE, scripts.probe], models: ["m1"] },
        {
          env: {
            PATH: process.env.PATH,
            OAR_RELAY_URL: "http://stale",
            OAR_AGENT_TOKEN: "stale",
            OAR_SESSION: "ses_old",
          },
        },
      ),
    );
    expect(report.env).toEqual({ OAR_SESSION: SESSION.id });
  });

  it("streams stdout in pieces as the program writes them; the reply is the whole, less one trailing newline", async () => {
    const gate = join(scripts.dir, "gate-lines");
    const run = startTurn({
      command: [
        NODE,
        scripts.gate,
        gate,
        Buffer.from("first\n").toString("hex"),
        Buffer.from("second\n\n").toString("hex"),
      ],
      models: ["m1"],
    });
    await vi.waitFor(() => expect(run.io.streamed).toEqual(["first\n"]), { timeout: 10_000, interval: 10 });
    await writeFile(gate, "");
    expect(await run.outcome).toEqual({ status: "done", reply: "first\nsecond\n" });
    expect(run.io.streamed).toEqual(["first\n", "second\n\n"]);
    await rm(gate);
  });

  it("keeps a multi-byte UTF-8 character whole when it is split between two reads", async () => {
    const gate = join(scripts.dir, "gate-utf8");
    // "a" + the first byte of "é" (c3 a9), then its second byte + "b".
    const run = startTurn({ command: [NODE, scripts.gate, gate, "61c3", "a962"], models: ["m1"] });
    await vi.waitFor(() => expect(run.io.streamed).toEqual(["a"]), { timeout: 10_000, interval: 10 });
    await writeFile(gate, "");
    expect(await run.outcome).toEqual({ status: "done", reply: "aéb" });
    expect(run.io.streamed).toEqual(["a", "éb"]);
    await rm(gate);
  });

  it("keeps the first MiB of a runaway output and says the rest was cut", async () => {
    const run = startTurn({
      command: [NODE, "-e", "process.stdout.write('x'.repeat(3 * 1024 * 1024))"],
      models: ["m1"],
    });
    const outcome = await run.outcome;
    expect(outcome.status).toBe("done");
    const reply = outcome.status === "done" ? outcome.reply : "";
    expect(reply).toBe(
      `${"x".repeat(1024 * 1024)}\n[The command wrote more than 1 MiB; the rest of its output was dropped.]`,
    );
    expect(run.io.streamed.join("")).toBe(reply);
  });

  it("ends error on a non-zero exit, with the stderr tail and the reply so far", async () => {
    const run = startTurn({
      command: ["sh", "-c", "echo partial answer; echo 'lint failed:' >&2; echo '  src/a.ts' >&2; exit 3"],
      models: ["m1"],
    });
    expect(await run.outcome).toEqual({
      status: "error",
      error: "`sh` exited with code 3.\nlint failed:\n  src/a.ts",
      reply: "partial answer",
    });
  });

  it("says only the exit code when stderr is empty, and gives no reply when stdout was", async () => {
    expect(await startTurn({ command: ["sh", "-c", "exit 1"], models: ["m1"] }).outcome).toEqual({
      status: "error",
      error: "`sh` exited with code 1.",
    });
  });

  it("keeps only the last 20 lines of a long stderr", async () => {
    const run = startTurn({
      command: ["sh", "-c", 'i=1; while [ $i -le 30 ]; do echo "problem $i" >&2; i=$((i+1)); done; exit 2'],
      models: ["m1"],
    });
    const outcome = await run.outcome;
    const lines = Array.from({ length: 20 }, (_, index) => `problem ${index + 11}`);
    expect(outcome).toEqual({ status: "error", error: ["`sh` exited with code 2.", ...lines].join("\n") });
  });

  it("keeps at most 4 KiB of stderr, in whole lines", async () => {
    const run = startTurn({
      command: [
        NODE,
        "-e",
        "for (let i = 0; i < 40; i++) console.error(String(i).padStart(299, '.')); process.exit(5)",
      ],
      models: ["m1"],
    });
    const outcome = await run.outcome;
    expect(outcome.status).toBe("error");
    const [head, ...tail] = (outcome.status === "error" ? outcome.error : "").split("\n");
    expect(head).toBe(`\`${NODE}\` exited with code 5.`);
    expect(tail.join("\n").length).toBeLessThanOrEqual(4096);
    expect(tail.length).toBe(13);
    expect(tail.every((line) => line.length === 299)).toBe(true);
    expect(tail.at(-1)).toBe("39".padStart(299, "."));
  });

  it("says which signal killed the program when it was not the relay's", async () => {
    expect(
      await startTurn({ command: ["sh", "-c", "echo before; kill -TERM $$"], models: ["m1"] }).outcome,
    ).toEqual({
      status: "error",
      error: "`sh` was killed by signal SIGTERM.",
      reply: "before",
    });
  });

  it("says a program that is not found, naming it and where to fix it", async () => {
    expect(await startTurn({ command: ["oar-no-such-agent", "{model}"], models: ["m1"] }).outcome).toEqual({
      status: "error",
      error:
        "`oar-no-such-agent` was not found (ENOENT): check the command of provider probe in the relay settings.",
    });
  });

  it("says a program that may not be run (EACCES)", async () => {
    const notExecutable = join(scripts.dir, "not-executable.sh");
    await writeFile(notExecutable, "#!/bin/sh\necho hi\n");
    await chmod(notExecutable, 0o644);
    expect(await startTurn({ command: [notExecutable], models: ["m1"] }).outcome).toEqual({
      status: "error",
      error: `\`${notExecutable}\` could not be run (EACCES: permission denied): check the command of provider probe in the relay settings.`,
    });
  });

  it("says when the session's folder is missing rather than blaming the program", async () => {
    const missing = join(scripts.dir, "no-such-folder");
    expect(
      await startTurn({ command: ["sh", "-c", "true"], models: ["m1"] }, { input: { cwd: missing } }).outcome,
    ).toEqual({
      status: "error",
      error: `\`sh\` could not start: the session's folder ${missing} does not exist.`,
    });
  });
});
