import { ErrorCodeSchema } from "@oar/schema";
import { describe, expect, it } from "vitest";
import { codeToStatus } from "../src/http/errors";

describe("one error-to-HTTP table (STYLE §8, DESIGN §4)", () => {
  it("maps the owner surface's codes to their statuses", () => {
    expect(codeToStatus("REMOTE_RELAY_INVALID_INPUT")).toBe(400);
    expect(codeToStatus("REMOTE_RELAY_AUTH")).toBe(401);
    expect(codeToStatus("REMOTE_RELAY_PERMISSION")).toBe(403);
    expect(codeToStatus("REMOTE_RELAY_NOT_FOUND")).toBe(404);
    expect(codeToStatus("REMOTE_RELAY_BUSY")).toBe(409);
    expect(codeToStatus("REMOTE_RELAY_UNKNOWN_MODEL")).toBe(422);
    expect(codeToStatus("REMOTE_RELAY_INTERNAL")).toBe(500);
  });

  it("gives every wire code an error status", () => {
    for (const code of ErrorCodeSchema.options) {
      expect([code, codeToStatus(code) >= 400]).toEqual([code, true]);
    }
  });
});
