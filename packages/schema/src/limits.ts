/**
 * Every bound of the wire contract, in one place, so the schemas, the engine and the README
 * table cannot drift apart. The README's limits table lists each key with the rule or GAP
 * it comes from; a test fails when a key is missing there.
 */
export const LIMITS = {
  // R-CALL-08
  ignoredMax: 20,
  // GAP-05 (DESIGN §6)
  lastDefault: 20,
  lastMax: 200,
  linesDefault: 50,
  linesMax: 500,
  waitSecondsDefault: 60,
  // Chosen: the spec is silent on sizes of free text and identifiers.
  textMaxChars: 100_000,
  titleMaxChars: 200,
  idMaxChars: 200,
  relayMaxChars: 253,
  nameMaxChars: 200,
  effortMaxChars: 50,
  cwdMaxChars: 4096,
  repoMaxChars: 200,
  branchMaxChars: 255,
  thinkingDisplayMaxChars: 50,
  autoCompactWindowMax: 10_000_000,
  // Levels of objects and lists in a call or a body (the call itself is level 1): deep enough for
  // any argument and any provider's settings, shallow enough that nothing recursive can overflow.
  nestingMax: 32,
  // subscribe (GAP-11/16; R-FEW-*)
  sessionsMax: 100,
  excludeMax: 100,
  matchMaxChars: 500,
  stalledMinutesDefault: 15,
  stalledMinutesMax: 1440,
  heartbeatMinutesMax: 1440,
  digestMinutesMax: 1440,
  // schedule (GAP-18)
  everyMinutesMax: 525_600,
  // ask / answer_question
  questionMaxChars: 2000,
  optionsMax: 10,
  optionMaxChars: 200,
  recommendationMaxChars: 200,
  detailMaxChars: 10_000,
  choicesMax: 20,
  choiceMaxChars: 500,
  answerMaxChars: 10_000,
  // Result sizes stated by the spec (R-RINFO-06, R-RSES-03, R-CGRP-07)
  relayInfoGroupsMax: 50,
  groupMembersMax: 50,
  errorGroupsMax: 20,
  // Owner settings (R-WST-02, DESIGN §4) and peer protocol (R-PAIR-04)
  longestWaitSecondsMin: 120,
  longestWaitSecondsMax: 3600,
  longestWaitSecondsDefault: 600,
  quietAfterMinutesDefault: 10,
  quietAfterMinutesMax: 1440,
  maxTurnSecondsMin: 60,
  maxTurnSecondsMax: 86_400,
  maxTurnSecondsDefault: 3600,
  hopsMax: 16,
  peerEventsPageDefault: 100,
  peerEventsPageMax: 500,
  peerNameMaxChars: 63,
  tokenMaxChars: 512,
  // Enforced by the engine, not by argument parsing; kept here so every package reads one value.
  maxActiveSessions: 4,
  subscriptionsPerConversation: 20,
  schedulesPerConversation: 20,
  pendingQuestionsPerConversation: 20,
  antiLoopPrompts: 30,
  hopsWithoutUnlock: 2,
} as const;
