// Run by each package's prepack/postpack: the one LICENSE at the repository's root goes into the
// package folder while it is packed (npm takes a package's files from its own folder only), then out.
import { copyFile, rm } from "node:fs/promises";
import { join } from "node:path";

const here = join(process.cwd(), "LICENSE");
if (process.argv.includes("--remove")) {
  await rm(here, { force: true });
} else {
  await copyFile(join(import.meta.dirname, "..", "LICENSE"), here);
}
