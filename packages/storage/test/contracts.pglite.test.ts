import { describeStoreContracts } from "./contracts";
import { pgliteDatabase } from "./databases";

describeStoreContracts(pgliteDatabase);
