// The run's one migrated PGlite template, made before the test processes start. The relay's
// project uses this file too: a global setup runs outside the test processes, where only relative
// imports reach the sources.
import type { TestProject } from "vitest/node";
import { provideMigratedTemplate } from "../../src/testing";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

const removers: (() => Promise<void>)[] = [];

export async function setup(project: TestProject): Promise<void> {
  removers.push(await provideMigratedTemplate(project));
}

export async function teardown(): Promise<void> {
  await Promise.all(removers.splice(0).map((remove) => remove()));
}
