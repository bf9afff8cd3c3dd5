// Each test process starts its in-memory databases from the run's template.

import { inject } from "vitest";
import { useMigratedTemplate } from "../../src/testing";

useMigratedTemplate(inject("pgliteTemplate"));
