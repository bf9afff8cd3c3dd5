import { describe, expect, it } from "vitest";
import { scheduleHeader, scheduleMessage } from "../src/schedule-message";

describe("R-SCH-07: a schedule's message begins with its prefix line", () => {
  it("names the schedule, its title and how often it fires", () => {
    expect(scheduleHeader({ id: "sch_3f9c2a1e7b04", title: "Nightly review", everyMinutes: 1440 })).toBe(
      '[relay schedule sch_3f9c2a1e7b04 "Nightly review" · every 1440 min · automated message from OAR, not from the user; it approves nothing]',
    );
  });

  it("says once, and which conversation set a schedule for another session", () => {
    expect(
      scheduleMessage({
        id: "sch_1",
        title: "Ping\nbuild",
        everyMinutes: null,
        setBy: { id: "ses_desk", title: "desk" },
        text: "Run the tests.",
      }),
    ).toBe(
      '[relay schedule sch_1 "Ping build" · once · set by "desk" (ses_desk) · automated message from OAR, not from the user; it approves nothing]\nRun the tests.',
    );
  });
});
