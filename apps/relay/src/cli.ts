#!/usr/bin/env node
import { isRelayError } from "@oar/core";
import { Command, Option } from "commander";
import { doctor } from "./cli/doctor";
import { migrateDatabase } from "./cli/migrate";
import { startRelay } from "./cli/start";
import { ownerTokenCommand } from "./cli/token";
import { type ConfigFlags, loadConfigWithFlags } from "./config";
import { RELAY_VERSION } from "./version";

const ENVIRONMENT = `
Every flag stands for a variable (a flag wins): --host RELAY_HOST, --port RELAY_PORT,
--name RELAY_NAME, --data-dir RELAY_DATA_DIR, --database-url DATABASE_URL. The others are
read from the environment only: RELAY_OWNER_TOKEN, RELAY_ALLOWED_ROOTS, RELAY_CLAUDE_BIN,
RELAY_COPILOT_BIN, RELAY_CLUSTER_URL, RELAY_PRUNE_EVERY_SECONDS, RELAY_PRUNE_BATCH,
RELAY_TOOL_CALLS_KEPT.`;

/** The flags every command that reads the configuration takes. */
function withConfigFlags(command: Command): Command {
  return command
    .addOption(new Option("--host <address>", "address to listen on (RELAY_HOST, default 127.0.0.1)"))
    .addOption(new Option("--port <port>", "port to listen on (RELAY_PORT, default 8787)"))
    .addOption(new Option("--name <name>", "this relay's name (RELAY_NAME, default the host name)"))
    .addOption(new Option("--data-dir <folder>", "its data directory (RELAY_DATA_DIR, default ./.relay)"))
    .addOption(new Option("--database-url <url>", "Postgres instead of the embedded PGlite (DATABASE_URL)"));
}

const print = (text: string) => console.log(text);

const program = new Command("oar-relay")
  .description("OAR relay: lets AI coding agents list, prompt, watch and schedule each other's sessions.")
  .version(RELAY_VERSION, "-v, --version", "print the version")
  .addHelpText("after", ENVIRONMENT)
  .showHelpAfterError("(oar-relay --help lists the commands)");

withConfigFlags(program.command("start").description("start the relay (pnpm relay runs this)")).action(
  (flags: ConfigFlags) => startRelay(loadConfigWithFlags(flags)),
);

withConfigFlags(program.command("migrate").description("apply the database's migrations, then exit")).action(
  async (flags: ConfigFlags) => print(await migrateDatabase(loadConfigWithFlags(flags))),
);

withConfigFlags(
  program
    .command("token")
    .description("say where the owner token is kept")
    .option("--rotate", "make a new owner token; the old one stops working"),
).action(async (flags: ConfigFlags & { readonly rotate?: boolean }) =>
  print(await ownerTokenCommand(loadConfigWithFlags(flags), { rotate: flags.rotate === true })),
);

withConfigFlags(
  program
    .command("doctor")
    .description("check what the relay needs: database, data directory, roots, agent CLIs, port"),
).action(async (flags: ConfigFlags) => {
  const { text, ok } = await doctor(flags);
  print(text);
  process.exitCode = ok ? 0 : 1;
});

program.parseAsync(process.argv).catch((cause: unknown) => {
  // One clear line: the configuration's own message already names what to change.
  console.error(
    `oar-relay: ${isRelayError(cause) || cause instanceof Error ? cause.message : String(cause)}`,
  );
  process.exit(1);
});
