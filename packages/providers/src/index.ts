export { createExternalProvider, EXTERNAL_PROVIDER_INFO } from "./external/external-provider";
export { MAX_SCRIPT_SLEEP_MS, parseScript, type ScriptPlan, type ScriptStep } from "./script/directives";
export {
  backgroundNotAvailableMessage,
  runScriptTurn,
  scriptProblemsMessage,
  sleepUnlessAborted,
} from "./script/run-script";
export { createScriptProvider, SCRIPT_PROVIDER_INFO } from "./script/script-provider";
