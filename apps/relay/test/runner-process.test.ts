import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { pidRuns, thisRunnerProcess } from "../src/runner-process";

describe("this relay process as its runner lease names it (DESIGN §9, issue 27 item 5)", () => {
  it.skipIf(process.platform !== "linux")(
    "names the pid space by boot id and pid namespace, and this process's pid",
    () => {
      const self = thisRunnerProcess();
      expect(self).toMatchObject({
        pid: process.pid,
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
});
