export { useMigratedTemplate, writeMigratedTemplate } from "../pglite";
export { provideMigratedTemplate } from "./migrated-template";
export { createScratchPostgres, type ScratchDatabase } from "./scratch-postgres";
export { startTcpProxy, type TcpProxy } from "./tcp-proxy";
