import { homedir } from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig, retentionOptions, storageTarget } from "../src/config";

describe("relay configuration (DESIGN §4 start)", () => {
  it("defaults to 127.0.0.1:8787 on the embedded PGlite in ./.relay", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ host: "127.0.0.1", port: 8787, dataDir: "./.relay" });
    expect(config.name).toMatch(/^[A-Za-z0-9]/);
    expect(storageTarget(config)).toEqual({ driver: "pglite", dataDir: "./.relay" });
  });

  it("reads every variable, and DATABASE_URL switches to Postgres", () => {
    const config = loadConfig({
      RELAY_HOST: "0.0.0.0",
      RELAY_PORT: "9000",
      RELAY_NAME: "build-box",
      RELAY_OWNER_TOKEN: "owner-token-0123456789",
      RELAY_DATA_DIR: "/var/lib/oar",
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      RELAY_ALLOWED_ROOTS: "/srv/work:/home/dev/projects",
      RELAY_LOG_LEVEL: "debug",
    });
    expect(config).toEqual({
      host: "0.0.0.0",
      port: 9000,
      name: "build-box",
      ownerToken: "owner-token-0123456789",
      dataDir: "/var/lib/oar",
      databaseUrl: "postgres://postgres@127.0.0.1:5432/test",
      allowedRoots: ["/srv/work", "/home/dev/projects"],
      logLevel: "debug",
    });
    expect(storageTarget(config)).toEqual({
      driver: "postgres",
      url: "postgres://postgres@127.0.0.1:5432/test",
    });
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ RELAY_PORT: "", DATABASE_URL: "  " })).toMatchObject({
      port: 8787,
      databaseUrl: undefined,
    });
  });

  it("names every bad variable and why", () => {
    expect(() =>
      loadConfig({
        RELAY_PORT: "70000",
        RELAY_NAME: "my relay",
        RELAY_OWNER_TOKEN: "short",
        DATABASE_URL: "mysql://x",
      }),
    ).toThrowError(
      /RELAY_PORT: .*\n {2}RELAY_NAME: letters, digits.*\n {2}RELAY_OWNER_TOKEN: at least 16 characters\n {2}DATABASE_URL: a postgres/,
    );
  });

  it("takes RELAY_CLUSTER_URL as an http(s) URL and refuses anything else, naming it", () => {
    expect(loadConfig({ RELAY_CLUSTER_URL: "http://10.0.0.5:8787" }).clusterUrl).toBe("http://10.0.0.5:8787");
    expect(loadConfig({}).clusterUrl).toBeUndefined();
    for (const value of ["10.0.0.5:8787", "ftp://10.0.0.5/", "not a url"]) {
      expect(() => loadConfig({ RELAY_CLUSTER_URL: value }), value).toThrowError(
        /RELAY_CLUSTER_URL: an http:\/\/ or https:\/\/ URL/,
      );
    }
  });

  it("logs at RELAY_LOG_LEVEL, info by default, and refuses a level pino does not have, naming the variable", () => {
    expect(loadConfig({}).logLevel).toBe("info");
    for (const level of ["trace", "debug", "info", "warn", "error", "fatal", "silent"]) {
      expect(loadConfig({ RELAY_LOG_LEVEL: level }).logLevel).toBe(level);
    }
    for (const value of ["verbose", "INFO", "30"]) {
      expect(() => loadConfig({ RELAY_LOG_LEVEL: value }), value).toThrowError(
        /RELAY_LOG_LEVEL: .*"trace"\|"debug"\|"info"\|"warn"\|"error"\|"fatal"\|"silent"/,
      );
    }
  });

  it("accepts the port edges 0 and 65535 and refuses 65536", () => {
    expect(loadConfig({ RELAY_PORT: "0" }).port).toBe(0);
    expect(loadConfig({ RELAY_PORT: "65535" }).port).toBe(65_535);
    expect(() => loadConfig({ RELAY_PORT: "65536" })).toThrowError(/RELAY_PORT/);
  });
});

describe("RELAY_ALLOWED_ROOTS (DESIGN §4, §7)", () => {
  it("defaults to the directory the relay starts in, then the user's home", () => {
    const roots = loadConfig({}).allowedRoots;
    expect(roots[0]).toBe(process.cwd());
    expect(roots).toEqual([...new Set([process.cwd(), homedir()])]);
    expect(loadConfig({ RELAY_ALLOWED_ROOTS: " " }).allowedRoots).toEqual(roots);
  });

  it("is a list separated by ':' like PATH, in its order (the first is the default folder)", () => {
    expect(loadConfig({ RELAY_ALLOWED_ROOTS: "/srv/app" }).allowedRoots).toEqual(["/srv/app"]);
    expect(loadConfig({ RELAY_ALLOWED_ROOTS: "/b:/a:/c d" }).allowedRoots).toEqual(["/b", "/a", "/c d"]);
  });

  it("refuses a relative or empty entry, naming RELAY_ALLOWED_ROOTS", () => {
    expect(() => loadConfig({ RELAY_ALLOWED_ROOTS: "/srv:work" })).toThrowError(
      /RELAY_ALLOWED_ROOTS: "work" is not an absolute path/,
    );
    expect(() => loadConfig({ RELAY_ALLOWED_ROOTS: "./here" })).toThrowError(
      /RELAY_ALLOWED_ROOTS: ".\/here" is not an absolute path/,
    );
    for (const value of ["/srv::/home", "/srv:", ":/srv"]) {
      expect(() => loadConfig({ RELAY_ALLOWED_ROOTS: value }), value).toThrowError(
        /RELAY_ALLOWED_ROOTS: an empty entry/,
      );
    }
  });
});

describe("RELAY_PRUNE_* (DESIGN §9: old rows pruned)", () => {
  it("prunes by the engine's defaults unless told otherwise, and not at all with RELAY_PRUNE_EVERY_SECONDS=0", () => {
    expect(retentionOptions(loadConfig({}))).toEqual({});
    expect(
      retentionOptions(
        loadConfig({
          RELAY_PRUNE_EVERY_SECONDS: "300",
          RELAY_PRUNE_BATCH: "100",
          RELAY_TOOL_CALLS_KEPT: "1000",
        }),
      ),
    ).toEqual({ everyMs: 300_000, batchSize: 100, toolCallsKept: 1_000 });
    expect(retentionOptions(loadConfig({ RELAY_PRUNE_EVERY_SECONDS: "0" }))).toBeUndefined();
  });

  it("refuses fewer tool calls kept than the activity shows, and a batch of none, naming each", () => {
    expect(() => loadConfig({ RELAY_TOOL_CALLS_KEPT: "199", RELAY_PRUNE_BATCH: "0" })).toThrowError(
      /RELAY_PRUNE_BATCH: .*\n {2}RELAY_TOOL_CALLS_KEPT: /,
    );
    expect(() => loadConfig({ RELAY_PRUNE_EVERY_SECONDS: "-1" })).toThrowError(/RELAY_PRUNE_EVERY_SECONDS/);
  });
});
