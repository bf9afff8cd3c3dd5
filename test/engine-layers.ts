import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// The layers of @oar/engine's src/, bottom first (its README's first section says what each holds).
// A folder (or a file at src/'s top) may import from its own layer unit and those listed before it,
// never from one listed after it. A new folder must be placed here before it can be used.
export const ENGINE_LAYERS = [
  "ports",
  "shared",
  "outbox",
  "tokens",
  "settings",
  "usage",
  "wakeups",
  "pairing",
  "provider-catalog",
  "live",
  "tasks",
  "runtime",
  "watching",
  "schedules",
  "questions",
  "actions",
  "peers",
  "retention",
  "calls",
  "owner",
  "cached-stores",
  "engine",
  "create-engine",
  "index",
  "testing",
] as const;

/** One relative import of a file of src/: both as paths relative to src/. */
export interface SourceEdge {
  readonly from: string;
  readonly to: string;
}

/** The layer unit of a path relative to src/: its first folder, or a top file's name without `.ts`. */
export function unitOf(path: string): string {
  const [first = "", ...rest] = path.split("/");
  return rest.length === 0 ? first.replace(/\.ts$/, "") : first;
}

/** The file a relative specifier names, as a path relative to `srcDir`. */
export function resolveSpecifier(srcDir: string, fromFile: string, specifier: string): string {
  const base = resolve(srcDir, dirname(fromFile), specifier);
  const file = existsSync(`${base}.ts`) ? `${base}.ts` : join(base, "index.ts");
  return relative(srcDir, file);
}

/** Every import that runs up the layers, or from or to a unit the order does not place. */
export function layerProblems(edges: readonly SourceEdge[], order: readonly string[]): string[] {
  const rank = new Map(order.map((unit, index) => [unit, index]));
  const problems: string[] = [];
  for (const { from, to } of edges) {
    const [a, b] = [unitOf(from), unitOf(to)];
    const [ra, rb] = [rank.get(a), rank.get(b)];
    if (ra === undefined || rb === undefined) {
      problems.push(`${from} → ${to}: ${ra === undefined ? a : b} is not among the engine's layers`);
    } else if (rb > ra) {
      problems.push(`${from} → ${to}: ${a} may not import ${b}, a layer above it`);
    }
  }
  return problems;
}

/** The import circles among files (Tarjan's strongly connected components of more than one file, or a file importing itself). */
export function importCircles(edges: readonly SourceEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (next.get(file) ?? []).includes(file)) {
        circles.push(component.sort());
      }
    }
  };
  for (const file of next.keys()) {
    if (!index.has(file)) {
      visit(file);
    }
  }
  return circles;
}
