import { describeStoreContracts } from "./contracts";
import { postgresDatabase } from "./databases";

describeStoreContracts(postgresDatabase);
