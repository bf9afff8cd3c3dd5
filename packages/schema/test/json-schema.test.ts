import { describe, expect, it } from "vitest";
import { ACTIONS, actionArgumentNames, actionJsonSchemas, relayToolInputJsonSchema } from "../src/index";

type Property = { description?: string; enum?: string[]; default?: unknown };
const properties = relayToolInputJsonSchema.properties as Record<string, Property>;

describe("relay_tool input JSON Schema (MCP tools/list)", () => {
  it("is one top-level object with action required, and no top-level oneOf/anyOf", () => {
    expect(relayToolInputJsonSchema.type).toBe("object");
    expect(relayToolInputJsonSchema.required).toEqual(["action"]);
    expect(relayToolInputJsonSchema).not.toHaveProperty("oneOf");
    expect(relayToolInputJsonSchema).not.toHaveProperty("anyOf");
    expect(relayToolInputJsonSchema).not.toHaveProperty("allOf");
  });

  it("R-OVW-05: action enumerates the 23 actions", () => {
    expect(properties.action?.enum).toEqual([...ACTIONS]);
  });

  it("GAP-05: lists every argument of every action, saying which actions take it", () => {
    for (const action of ACTIONS) {
      for (const name of actionArgumentNames(action)) {
        const property = properties[name];
        expect(property, `${action}.${name}`).toBeDefined();
        expect(property?.description).toMatch(/Taken by: /);
        const takenBy = property?.description?.split("Taken by: ")[1]?.split(".")[0]?.split(", ") ?? [];
        expect(takenBy, `${action}.${name}`).toContain(action);
      }
    }
  });

  it("lists no argument that no action takes", () => {
    const all = new Set(ACTIONS.flatMap((action) => actionArgumentNames(action)));
    expect(Object.keys(properties).filter((name) => name !== "action" && !all.has(name))).toEqual([]);
  });

  it('R-RLY-04: relay says where it is required and where it defaults to "this"', () => {
    const description = properties.relay?.description ?? "";
    expect(description).toContain("Required by: relay_info,");
    expect(description).toContain('Default "this" for: subscribe, unsubscribe,');
    expect(description.split("Taken by: ")[1]?.split(".")[0]).not.toContain("list_relays");
  });

  it("is plain JSON (serialisable, no functions)", () => {
    expect(JSON.parse(JSON.stringify(relayToolInputJsonSchema))).toEqual(relayToolInputJsonSchema);
  });
});

describe("per-action JSON Schemas (z.toJSONSchema)", () => {
  it("exist for the 23 actions, with action fixed and the same argument names", () => {
    expect(Object.keys(actionJsonSchemas)).toEqual([...ACTIONS]);
    for (const action of ACTIONS) {
      const schema = actionJsonSchemas[action];
      const props = schema.properties as Record<string, { const?: string }>;
      expect(props.action?.const).toBe(action);
      expect(Object.keys(props).filter((name) => name !== "action")).toEqual([
        ...actionArgumentNames(action),
      ]);
    }
  });

  it("GAP-05: carry the defaults and bounds", () => {
    const lines = (actionJsonSchemas.read_task_output.properties as Record<string, Record<string, unknown>>)
      .lines;
    expect(lines).toMatchObject({ type: "integer", minimum: 1, maximum: 500, default: 50 });
    const last = (actionJsonSchemas.read_session.properties as Record<string, Record<string, unknown>>).last;
    expect(last).toMatchObject({ default: 20 });
    expect(actionJsonSchemas.read_task_output.required).toEqual(["action", "relay", "session", "task_id"]);
  });
});
