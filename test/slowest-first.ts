import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./durations.json" with { type: "json" };

const seconds: Readonly<Record<string, number>> = durations;

/**
 * Starts the files known to be slow first, whichever package they are in. Vitest's own order runs
 * the packages one after another and, on a fresh clone with no timings cached, a package's big
 * files first: the storage package's long engine tests came last and ran alone at the end. The
 * timings are those of a full run (`test/durations.json`, `pnpm test:durations` after `pnpm test`);
 * a file not in it keeps vitest's order after the known ones.
 */
export class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const weight = (spec: TestSpecification) => seconds[relative(root, spec.moduleId)] ?? 0;
    // Array.prototype.sort is stable: files of equal weight keep vitest's order.
    return [...(await super.sort(files))].sort((a, b) => weight(b) - weight(a));
  }
}
