import { describeOnPostgres, describeWithPairedRelay } from "./console-suite";

describeOnPostgres();
describeWithPairedRelay();
