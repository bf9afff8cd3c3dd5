import { describeOn } from "./console-suite";

describeOn("PGlite");
