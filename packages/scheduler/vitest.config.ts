import { defineProject } from "vitest/config";
import { sourceConditions } from "../../vitest.shared.ts";

export default defineProject({
  ...sourceConditions,
  // A host zone with clock changes: the decisions must not depend on the machine's own zone.
  test: { name: "scheduler", env: { TZ: "Europe/Berlin" }, isolate: false },
});
