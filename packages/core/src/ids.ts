import { customAlphabet } from "nanoid";

/** Every id the relay hands out carries a prefix that names its kind. */
export const ID_PREFIXES = {
  session: "ses",
  message: "msg",
  turn: "trn",
  subscription: "sub",
  schedule: "sch",
  firing: "fir",
  ask: "ask",
  question: "q",
  group: "grp",
  task: "tsk",
  card: "card",
  event: "evt",
  delivery: "dlv",
  peer: "peer",
  token: "tok",
  request: "req",
  runner: "run",
  toolCall: "call",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
export type IdPrefix = (typeof ID_PREFIXES)[IdKind];

export interface IdGenerator {
  next(kind: IdKind): string;
}

// Lowercase letters and digits only: ids are read aloud, typed by agents and matched case-insensitively.
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const ID_BODY_LENGTH = 12;

export function createIdGenerator(): IdGenerator {
  const body = customAlphabet(ALPHABET, ID_BODY_LENGTH);
  return { next: (kind) => `${ID_PREFIXES[kind]}_${body()}` };
}

export function idPrefixOf(id: string): string | undefined {
  const at = id.indexOf("_");
  return at > 0 ? id.slice(0, at) : undefined;
}
