export { useMigratedTemplate, writeMigratedTemplate } from "../pglite";
export { createScratchPostgres, type ScratchDatabase } from "./scratch-postgres";
export { startTcpProxy, type TcpProxy } from "./tcp-proxy";
