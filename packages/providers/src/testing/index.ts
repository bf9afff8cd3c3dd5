export {
  type AgentTestbed,
  COPILOT_BYOK_MODEL,
  copilotTestEnv,
  createAgentTestbed,
  homeEnv,
  makeAgentFolders,
  pinnedCopilotBinary,
  processesWithEnv,
} from "./agent-testbed";
export {
  error,
  FAKE_INPUT_TOKENS,
  FAKE_OUTPUT_TOKENS,
  hang,
  type ScriptedReply,
  text,
  toolUse,
} from "./anthropic-replies";
export {
  type FakeAnthropic,
  type RecordedRequest,
  startFakeAnthropic,
  UNSCRIPTED_REPLY,
} from "./fake-anthropic";
export { bodyOf, conversationOf, type MessagesBody, toolResultsOf } from "./messages-body";
