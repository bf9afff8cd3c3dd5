import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * A CLI agent for command-provider tests, in plain Node: it reads the prompt on stdin and prints
 * a reply naming its argv, its folder and what its environment holds. A prompt with `call-relay`
 * makes it call relay_tool (list_sessions) at $OAR_RELAY_URL with $OAR_AGENT_TOKEN; one with
 * `fail` makes it write to stderr and exit 3; one with `hang` makes it start a child, write its pid to
 * `agent-<session>.pid` in its folder and run until it is killed.
 */
const AGENT_SOURCE = `import { readFileSync } from "node:fs";
const prompt = readFileSync(0, "utf8");
const lines = [
  "argv: " + JSON.stringify(process.argv.slice(2)),
  "cwd: " + process.cwd(),
  "prompt: " + prompt.trim(),
  "OAR_SESSION: " + (process.env.OAR_SESSION ?? "(unset)"),
  "OAR_RELAY_URL set: " + (process.env.OAR_RELAY_URL !== undefined),
  "OAR_AGENT_TOKEN set: " + (process.env.OAR_AGENT_TOKEN !== undefined),
  "RELAY_OWNER_TOKEN set: " + (process.env.RELAY_OWNER_TOKEN !== undefined),
  "DATABASE_URL set: " + (process.env.DATABASE_URL !== undefined),
];
if (prompt.includes("call-relay")) {
  const response = await fetch(process.env.OAR_RELAY_URL + "/v1/tool", {
    method: "POST",
    headers: {
      Authorization: "Bearer " + process.env.OAR_AGENT_TOKEN,
      "Content-Type": "application/json",
    },
    body: JSON.stringify({ action: "list_sessions", relay: "this" }),
  });
  const result = await response.json();
  const ids = (result.sessions ?? []).map((session) => session.id);
  lines.push("relay call: HTTP " + response.status + " ok=" + result.ok);
  lines.push("relay call lists its own session: " + ids.includes(process.env.OAR_SESSION));
}
if (prompt.includes("hang")) {
  // Runs until the relay ends its process group: a child of its own, and its pid in a file first.
  const { spawn } = await import("node:child_process");
  const { writeFileSync } = await import("node:fs");
  spawn("sleep", ["1000"], { stdio: "ignore" });
  writeFileSync("agent-" + process.env.OAR_SESSION + ".pid", String(process.pid));
  process.stdout.write("hanging\\n");
  setInterval(() => {}, 60_000);
} else if (prompt.includes("fail")) {
  process.stdout.write("partial reply before the failure\\n");
  process.stderr.write("agent broke: the disk is on fire\\n");
  process.exit(3);
} else {
  process.stdout.write(lines.join("\\n") + "\\n");
}
`;

/** Writes the agent into `dir`; returns its path. */
export async function writeCommandAgent(dir: string): Promise<string> {
  const path = join(dir, "agent.mjs");
  await writeFile(path, AGENT_SOURCE);
  return path;
}
