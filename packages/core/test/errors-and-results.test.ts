import { describe, expect, it } from "vitest";
import { isRelayError, RelayError } from "../src/errors";
import { err, ok, wrap } from "../src/result";

describe("RelayError", () => {
  it("carries code, context, retryable and cause", () => {
    const cause = new Error("socket closed");
    const error = new RelayError("REMOTE_RELAY_UNREACHABLE", 'Relay "build-box" does not answer.', {
      retryable: true,
      context: { relay: "build-box" },
      cause,
    });
    expect(error.code).toBe("REMOTE_RELAY_UNREACHABLE");
    expect(error.retryable).toBe(true);
    expect(error.context).toEqual({ relay: "build-box" });
    expect(error.cause).toBe(cause);
    expect(isRelayError(error)).toBe(true);
    expect(error.isLocal()).toBe(false);
  });

  it("is rebuilt from a wire envelope with its extra fields kept as context (R-CALL-04)", () => {
    const error = RelayError.fromWire({
      ok: false,
      code: "REMOTE_RELAY_UNKNOWN_MODEL",
      error: "Unknown model 'x'. Nothing was sent.",
      suggestions: ["script-1"],
      models: ["script-1", "script-2"],
    });
    expect(error.code).toBe("REMOTE_RELAY_UNKNOWN_MODEL");
    expect(error.message).toBe("Unknown model 'x'. Nothing was sent.");
    expect(error.context).toEqual({ suggestions: ["script-1"], models: ["script-1", "script-2"] });
  });

  it("tells local codes from wire codes", () => {
    expect(new RelayError("TIMEOUT", "took too long").isLocal()).toBe(true);
    expect(isRelayError(new Error("plain"))).toBe(false);
  });
});

describe("Result", () => {
  it("wraps a resolved promise as ok and a rejection as err", async () => {
    expect(await wrap(Promise.resolve(3), () => "bad")).toEqual(ok(3));
    expect(await wrap(Promise.reject(new Error("x")), (cause) => (cause as Error).message)).toEqual(err("x"));
  });
});
