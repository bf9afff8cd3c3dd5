import { type ConfigFlags, type Env, loadConfigWithFlags } from "../config";
import {
  agentCheck,
  allowedRootsCheck,
  type Check,
  databaseCheck,
  dataDirCheck,
  portCheck,
} from "./doctor-checks";

function shown(check: Check): string {
  const mark = check.ok ? "✓" : check.optional ? "–" : "✗";
  const line = `${mark} ${check.title}: ${check.detail}`;
  return check.ok || check.fix === undefined ? line : `${line}\n    → ${check.fix}`;
}

/**
 * `oar-relay doctor`: what a relay started with these flags and this environment would meet, each
 * check with what to do when it fails. Changes nothing. Returns what to print and whether every
 * check that matters passed (a missing agent CLI does not count: the relay runs without it).
 */
export async function doctor(
  flags: ConfigFlags,
  env?: Env,
): Promise<{ readonly text: string; readonly ok: boolean }> {
  let config: ReturnType<typeof loadConfigWithFlags>;
  try {
    config = env === undefined ? loadConfigWithFlags(flags) : loadConfigWithFlags(flags, env);
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    return {
      text: shown({ ok: false, title: "Configuration", detail, fix: "Fix the variables or flags named." }),
      ok: false,
    };
  }
  const checks: Check[] = [
    { ok: true, title: "Configuration", detail: `relay "${config.name}" on ${config.host}:${config.port}` },
    await dataDirCheck(config),
    await databaseCheck(config),
    await allowedRootsCheck(config),
    await agentCheck("claude", config),
    await agentCheck("copilot", config),
    await portCheck(config),
  ];
  return {
    text: checks.map(shown).join("\n"),
    ok: checks.every((check) => check.ok || check.optional === true),
  };
}
