import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  newRelayInstance,
  pidRuns,
  RELAY_INSTANCE_VARIABLE,
  reapInstance,
  thisRunnerProcess,
} from "../src/runner-process";

describe("this relay process as its runner lease names it (DESIGN §9, issue 27 item 5)", () => {
  it.skipIf(process.platform !== "linux")(
    "names the pid space by boot id and pid namespace, and this process's pid",
    () => {
      const instance = newRelayInstance();
      const self = thisRunnerProcess(instance);
      expect(self).toMatchObject({
        pid: process.pid,
        instance,
        host: expect.stringMatching(/ [0-9a-f-]{36} pid:\[\d+\]$/),
      });
      expect(self?.isAlive(process.pid)).toBe(true);
    },
  );

  it("tells a pid that runs from one whose process ended", async () => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    const pid = child.pid ?? 0;
    await new Promise((resolve) => child.on("exit", resolve));
    expect(pidRuns(process.pid)).toBe(true);
    expect(pidRuns(pid)).toBe(false);
  });

  it.skipIf(process.platform !== "linux")(
    "reaps the processes whose environment names the instance, however deep, and no other",
    async () => {
      const gone = newRelayInstance();
      const live = newRelayInstance();
      const start = (instance: string, script: string) =>
        spawn("sh", ["-c", script], {
          stdio: "ignore",
          detached: true,
          env: { ...process.env, [RELAY_INSTANCE_VARIABLE]: instance },
        });
      // A shell whose own child sleeps: both carry the variable.
      const left = start(gone, "sleep 300 & sleep 300");
      const kept = start(live, "sleep 300");
      const exited = (child: ReturnType<typeof spawn>) =>
        new Promise<string | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
      const leftExit = exited(left);
      try {
        // Both sleeps and the shell (the shell may have exec'd into the last one).
        await expect.poll(() => reapInstance(gone).then(() => leftExit), { timeout: 5_000 }).toBe("SIGKILL");
        // A SIGKILL lands a moment later: until then a process may still be found (and killed again).
        await expect.poll(() => reapInstance(gone), { timeout: 5_000 }).toBe(0);
        expect(pidRuns(kept.pid ?? 0)).toBe(true);
      } finally {
        for (const child of [left, kept]) {
          try {
            process.kill(-(child.pid ?? 0), "SIGKILL");
          } catch {
            // Gone already.
          }
        }
      }
    },
  );
});
