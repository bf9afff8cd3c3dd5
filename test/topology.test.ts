import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import {
  ENGINE_LAYERS,
  importCircles,
  layerProblems,
  resolveSpecifier,
  type SourceEdge,
} from "./engine-layers";

// The import direction of DESIGN §2: each package may depend on the packages and libraries listed
// here and nothing else. A new edge is a design change: change DESIGN.md first, then this table.
const ALLOWED: Record<
  string,
  { runtime: string[]; typeOnly?: string[]; testOnly?: string[]; bundlesLibraries?: boolean }
> = {
  "@oar/schema": { runtime: ["zod"] },
  "@oar/core": { runtime: ["@oar/schema", "nanoid"] },
  "@oar/permissions": { runtime: ["@oar/schema", "@oar/core"] },
  // date-fns-tz reads quiet hours' zones (DESIGN §2's scheduler card); date-fns is its peer.
  "@oar/scheduler": { runtime: ["@oar/schema", "@oar/core", "date-fns-tz", "date-fns"] },
  "@oar/client": { runtime: ["@oar/schema", "@oar/core", "ky"] },
  "@oar/storage": {
    runtime: ["@oar/schema", "@oar/core", "drizzle-orm", "@electric-sql/pglite", "postgres"],
    // Storage implements the ports the engines declare: it may see their types, never their logic.
    typeOnly: ["@oar/engine", "@oar/permissions", "@oar/scheduler"],
  },
  "@oar/engine": { runtime: ["@oar/schema", "@oar/core", "@oar/permissions", "@oar/scheduler"] },
  "@oar/providers": {
    // The acp provider is an Agent Client Protocol client; grok and deepseek run their loop with the
    // AI SDK against an OpenAI-compatible chat API (DESIGN §5).
    runtime: [
      "@oar/schema",
      "@oar/core",
      "@oar/engine",
      "@agentclientprotocol/sdk",
      "ai",
      "@ai-sdk/openai-compatible",
    ],
    // The Claude Code and Copilot providers are tested against the real CLIs calling a real MCP server.
    testOnly: ["@anthropic-ai/claude-code", "@github/copilot", "@modelcontextprotocol/sdk"],
  },
  "@oar/relay": {
    runtime: [
      "@oar/schema",
      "@oar/core",
      "@oar/permissions",
      "@oar/scheduler",
      "@oar/client",
      "@oar/storage",
      "@oar/engine",
      "@oar/providers",
      "hono",
      "@hono/node-server",
      "@modelcontextprotocol/sdk",
      "zod",
      // DESIGN §10: pino JSON lines (pino-pretty on a terminal) and Prometheus text at /metrics.
      "pino",
      "pino-pretty",
      "prom-client",
      // `oar-relay`'s commands and flags.
      "commander",
    ],
    // `npm install -g @oar/relay` installs one package: its build bundles the libraries, so their
    // runtime dependencies are its dependencies (declared, never imported by its own code).
    bundlesLibraries: true,
    // The owner's console is tested in a real Chromium (Debian's), driven by playwright-core; the
    // OpenAPI document against the OpenAPI 3.1 schema, and real responses against it with ajv.
    testOnly: ["playwright-core", "@seriousme/openapi-schema-validator", "ajv"],
  },
  // Benchmarks drive the whole relay from outside, as a user's tool would, and measure peers
  // (pg-boss's scheduler, bench/schedules) in the same run.
  "@oar/bench": {
    // bench/console watches the owner's console in Debian's Chromium, through playwright-core.
    runtime: [
      "@oar/core",
      "@oar/relay",
      "@oar/storage",
      "hono",
      "@hono/node-server",
      "pg-boss",
      "playwright-core",
      // bench/providers drives the same ACP agent directly, against the providers' fake model API.
      "@oar/providers",
      "@agentclientprotocol/sdk",
    ],
  },
};

// Packages that only compute: no Node built-ins, no I/O libraries (DESIGN §2, STYLE §4).
const PURE = new Set(["@oar/schema", "@oar/core", "@oar/permissions", "@oar/scheduler"]);
// Dev-only tooling any package may list in devDependencies.
const TOOLING = new Set(["tsup", "typescript", "vitest", "tsx", "drizzle-kit", "fast-check", "@types/node"]);

interface Workspace {
  dir: string;
  manifest: {
    name: string;
    exports?: Record<string, Record<string, string>>;
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
}

const root = join(import.meta.dirname, "..");

function workspaces(): Workspace[] {
  const dirs = [
    ...["packages", "apps"].flatMap((group) =>
      readdirSync(join(root, group)).map((name) => join(root, group, name)),
    ),
    join(root, "bench"),
  ];
  return dirs.map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }));
}

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      return typeScriptFiles(path);
    }
    return /\.tsx?$/.test(entry) ? [path] : [];
  });
}

function sourceFiles(dir: string): string[] {
  return typeScriptFiles(dir).filter((file) => !file.endsWith(".test.ts"));
}

/** The folders of a workspace that hold TypeScript of its own (not installed, not built). */
function codeFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !["node_modules", "dist", ".turbo"].includes(entry.name))
    .map((entry) => entry.name)
    .filter((name) => typeScriptFiles(join(dir, name)).length > 0);
}

interface ImportSite {
  file: string;
  specifier: string;
  typeOnly: boolean;
}

const IMPORT_RE = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm;

function importsOf(file: string): ImportSite[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(IMPORT_RE)].map((m) => ({
    file: relative(root, file),
    specifier: m[3] ?? "",
    typeOnly: Boolean(m[2]),
  }));
}

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("node:")) {
    return undefined;
  }
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
}

function dependencyProblems(manifest: Workspace["manifest"]): string[] {
  const name = manifest.name;
  const rule = ALLOWED[name];
  if (!rule) {
    return [`${name} is not in the topology table`];
  }
  const problems: string[] = [];
  const bundledLibraries = rule.bundlesLibraries ? rule.runtime.filter((dep) => dep.startsWith("@oar/")) : [];
  const bundled = bundledLibraries.flatMap((lib) => ALLOWED[lib]?.runtime ?? []);
  for (const dep of Object.keys(manifest.dependencies ?? {})) {
    if (!rule.runtime.includes(dep) && !(bundled.includes(dep) && !dep.startsWith("@oar/"))) {
      problems.push(`${name} must not depend on ${dep}`);
    }
  }
  for (const dep of Object.keys(manifest.devDependencies ?? {})) {
    if (
      !(
        TOOLING.has(dep) ||
        rule.runtime.includes(dep) ||
        rule.typeOnly?.includes(dep) ||
        rule.testOnly?.includes(dep)
      )
    ) {
      problems.push(`${name} must not have the devDependency ${dep}`);
    }
  }
  return problems;
}

function importProblems(manifest: Workspace["manifest"], sites: ImportSite[]): string[] {
  const name = manifest.name;
  const rule = ALLOWED[name];
  const declared = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.devDependencies ?? {}),
  ]);
  const problems: string[] = [];
  for (const site of sites) {
    if (site.specifier.startsWith("node:")) {
      if (PURE.has(name)) {
        problems.push(`${site.file}: a pure package imports ${site.specifier}`);
      }
      continue;
    }
    const dep = packageOf(site.specifier);
    if (!dep || dep === name) {
      continue;
    }
    if (/^@oar\/[^/]+\/src/.test(site.specifier)) {
      problems.push(`${site.file}: deep import ${site.specifier}`);
    }
    const inTesting = site.file.includes("/src/testing/");
    if (rule?.runtime.includes(dep)) {
      if (!declared.has(dep)) {
        problems.push(`${site.file}: imports ${dep}, which package.json does not declare`);
      }
    } else if (rule?.typeOnly?.includes(dep)) {
      if (!site.typeOnly) {
        problems.push(`${site.file}: may import ${dep} only with "import type"`);
      }
    } else if (!(inTesting && TOOLING.has(dep))) {
      problems.push(`${site.file}: must not import ${site.specifier}`);
    }
  }
  return problems;
}

const all = workspaces();
// The bench is a program, not a library: it has no entry point, README or build of its own.
const libraries = all.filter((w) => w.manifest.name !== "@oar/bench");

describe("package topology (DESIGN §2)", () => {
  it("knows every workspace package, and every package has the anatomy of STYLE §15", () => {
    expect(all.map((w) => w.manifest.name).sort()).toEqual(Object.keys(ALLOWED).sort());
    for (const w of libraries) {
      for (const file of ["src/index.ts", "README.md", "tsup.config.ts", "tsconfig.json"]) {
        expect(statSync(join(w.dir, file)).isFile(), `${w.manifest.name} has ${file}`).toBe(true);
      }
    }
  });

  it.each(all.map((w) => [w.manifest.name, w] as const))(
    "%s declares only allowed dependencies",
    (_name, w) => {
      expect(dependencyProblems(w.manifest)).toEqual([]);
    },
  );

  it.each(all.map((w) => [w.manifest.name, w] as const))(
    "%s imports only in the allowed direction",
    (_name, w) => {
      // A library's code is its src/; every folder of the bench is code that runs.
      const roots = libraries.includes(w) ? ["src"] : codeFolders(w.dir);
      const sites = roots.flatMap((r) => sourceFiles(join(w.dir, r))).flatMap(importsOf);
      expect(importProblems(w.manifest, sites)).toEqual([]);
    },
  );

  it.each(all.map((w) => [w.manifest.name, w] as const))(
    "%s type-checks every folder that holds its TypeScript",
    (_name, w) => {
      const { include } = JSON.parse(readFileSync(join(w.dir, "tsconfig.json"), "utf8")) as {
        include: string[];
      };
      expect(codeFolders(w.dir).filter((folder) => !include.includes(folder))).toEqual([]);
    },
  );

  it("never lets a package depend on the app (the bench drives it from outside, as a user would)", () => {
    for (const w of libraries) {
      const deps = { ...w.manifest.dependencies, ...w.manifest.devDependencies };
      expect(Object.keys(deps), w.manifest.name).not.toContain("@oar/relay");
    }
  });

  it.each(libraries.map((w) => [w.manifest.name, w] as const))(
    "%s exports resolve to sources first, so tests need no build",
    (name, w) => {
      const exportsMap = w.manifest.exports ?? {};
      expect(Object.keys(exportsMap), name).toContain(".");
      for (const [key, conditions] of Object.entries(exportsMap)) {
        expect(Object.keys(conditions)[0], `${name} ${key}`).toBe("@oar/source");
        expect(statSync(join(w.dir, conditions["@oar/source"] ?? "missing")).isFile()).toBe(true);
      }
    },
  );
});

describe("the engine's layers (packages/engine/README.md)", () => {
  const srcDir = join(root, "packages", "engine", "src");
  const edges: SourceEdge[] = typeScriptFiles(srcDir).flatMap((file) =>
    importsOf(file)
      .filter((site) => site.specifier.startsWith("."))
      .map((site) => ({
        from: relative(srcDir, file),
        to: resolveSpecifier(srcDir, relative(srcDir, file), site.specifier),
      })),
  );

  it("every import of src/ runs down the layers, or stays in its own folder", () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(layerProblems(edges, ENGINE_LAYERS)).toEqual([]);
  });

  it("no file of src/ imports itself through others: no circles", () => {
    expect(importCircles(edges)).toEqual([]);
  });

  it("the check fails on an import up the layers, a folder it does not place, and a circle", () => {
    expect(
      layerProblems(
        [
          { from: "runtime/a.ts", to: "ports/b.ts" },
          { from: "tasks/a.ts", to: "runtime/b.ts" },
          { from: "novel/a.ts", to: "ports/b.ts" },
        ],
        ENGINE_LAYERS,
      ),
    ).toEqual([
      "tasks/a.ts → runtime/b.ts: tasks may not import runtime, a layer above it",
      "novel/a.ts → ports/b.ts: novel is not among the engine's layers",
    ]);
    expect(
      importCircles([
        { from: "a.ts", to: "b.ts" },
        { from: "b.ts", to: "c.ts" },
        { from: "c.ts", to: "a.ts" },
        { from: "c.ts", to: "d.ts" },
      ]),
    ).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });
});

describe("the topology check itself", () => {
  it("fails on a wrong edge in package.json", () => {
    expect(
      dependencyProblems({ name: "@oar/core", dependencies: { "@oar/storage": "workspace:*" } }),
    ).toEqual(["@oar/core must not depend on @oar/storage"]);
    expect(
      dependencyProblems({ name: "@oar/permissions", dependencies: { "@oar/scheduler": "workspace:*" } }),
    ).toEqual(["@oar/permissions must not depend on @oar/scheduler"]);
    expect(dependencyProblems({ name: "@oar/engine", devDependencies: { hono: "4" } })).toEqual([
      "@oar/engine must not have the devDependency hono",
    ]);
  });

  it("fails on a wrong edge in the sources", () => {
    const site = (specifier: string, typeOnly = false) => ({
      file: "packages/x/src/a.ts",
      specifier,
      typeOnly,
    });
    expect(importProblems({ name: "@oar/scheduler" }, [site("node:fs")])).toEqual([
      "packages/x/src/a.ts: a pure package imports node:fs",
    ]);
    expect(importProblems({ name: "@oar/client" }, [site("drizzle-orm")])).toEqual([
      "packages/x/src/a.ts: must not import drizzle-orm",
    ]);
    expect(importProblems({ name: "@oar/storage", dependencies: {} }, [site("@oar/engine")])).toEqual([
      'packages/x/src/a.ts: may import @oar/engine only with "import type"',
    ]);
    expect(importProblems({ name: "@oar/storage" }, [site("@oar/engine", true)])).toEqual([]);
    expect(importProblems({ name: "@oar/engine" }, [site("@oar/core")])).toEqual([
      "packages/x/src/a.ts: imports @oar/core, which package.json does not declare",
    ]);
    expect(
      importProblems({ name: "@oar/relay", dependencies: { "@oar/core": "*" } }, [site("@oar/core/src/ids")]),
    ).toEqual(["packages/x/src/a.ts: deep import @oar/core/src/ids"]);
  });

  it("recognises value, type-only and re-export imports", () => {
    const text = `import { a } from "@oar/core";\nimport type { B } from "@oar/engine";\nexport { c } from "./c";\n`;
    const sites = [...text.matchAll(IMPORT_RE)].map((m) => [m[3], Boolean(m[2])]);
    expect(sites).toEqual([
      ["@oar/core", false],
      ["@oar/engine", true],
      ["./c", false],
    ]);
  });
});
