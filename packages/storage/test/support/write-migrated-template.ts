// Run by migrated-template.global.ts in a process of its own (tsx, the source condition): writes
// the migrated template to the file its first argument names.
import { writeMigratedTemplate } from "../../src/testing";

const file = process.argv[2];
if (file === undefined) {
  throw new Error("usage: write-migrated-template.ts <file>");
}
await writeMigratedTemplate(file);
