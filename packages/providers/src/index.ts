export { MAX_SCRIPT_SLEEP_MS, parseScript, type ScriptPlan, type ScriptStep } from "./script/directives";
