import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Runs the command in its own mount and UTS namespaces (`unshare`, root on Linux): its host name
 * is `hostName` and each of `hiddenDirs` is an empty tmpfs to it, so processes of one machine see
 * each other as processes of separate hosts would: another member's data directory (task output,
 * clones) is not there, and the relay's runner identity (host name, boot id, pid namespace)
 * differs. They still share one pid space and the network, so a process can see and signal the
 * others' children; `exec` keeps the pid the command's own, so a kill -9 reaches the relay itself.
 */
export function onItsOwnHost(
  hostName: string,
  hiddenDirs: readonly string[],
  command: readonly string[],
): { readonly file: string; readonly args: string[] } {
  const script = [
    'hostname "$1" || exit 1',
    "shift",
    'while [ "$1" != "--" ]; do mount -t tmpfs -o size=64k,mode=0700 elsewhere "$1" || exit 1; shift; done',
    "shift",
    'exec "$@"',
  ].join("\n");
  return {
    file: "unshare",
    args: ["--mount", "--uts", "--", "sh", "-c", script, "sh", hostName, ...hiddenDirs, "--", ...command],
  };
}

/** Whether `onItsOwnHost` works here: unshare present and allowed (root with CAP_SYS_ADMIN). */
export async function canSeparateHosts(): Promise<boolean> {
  if (process.platform !== "linux" || process.getuid?.() !== 0) {
    return false;
  }
  try {
    await run("unshare", ["--mount", "--uts", "--", "sh", "-c", "hostname separate-host-check"]);
    return true;
  } catch {
    return false;
  }
}
