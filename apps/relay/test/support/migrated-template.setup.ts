// Each test process starts its in-memory databases from the run's template (made by
// packages/storage/test/support/migrated-template.global.ts).
import { useMigratedTemplate } from "@oar/storage/testing";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

useMigratedTemplate(inject("pgliteTemplate"));
