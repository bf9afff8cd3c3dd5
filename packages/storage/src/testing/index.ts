export { createScratchPostgres, type ScratchDatabase } from "./scratch-postgres";
