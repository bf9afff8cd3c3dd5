import { countsOnlyWithAt, type NamedRelay, normalizeHost, sameHost } from "./relay-names";

/**
 * One word of an owner's message, as the mention rules see it (R-LOCK-01(a), R-LOCK-02).
 *
 * A token is a maximal run of letters, digits (any script), `-`, `_` and `.`; everything else
 * separates tokens (spaces, `,;:!?'"()[]{}<>/\|*@#…`). So `build-box,` `(build-box)` and
 * `https://build-box.example.com/x` yield the token `build-box` / `build-box.example.com`, while
 * `desktop`, `my-desk-2` and `desk_old` are tokens of their own that do not contain `desk`.
 */
export interface MessageToken {
  /** The run as written. */
  readonly text: string;
  /** The run without leading or trailing `.`, `-`, `_` (sentence dots, `_emphasis_`). */
  readonly core: string;
  /** Written as `@name`: an `@` right before it that does not end a word (`ops@host` is an address). */
  readonly at: boolean;
  /** `:8443` right after it (a host with its port; the digits are not a token), else null. */
  readonly port: number | null;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{M}\p{N}]$/u;
const EDGE = new Set([".", "-", "_"]);

function isTokenChar(char: string | undefined): boolean {
  return char !== undefined && (EDGE.has(char) || LETTER_OR_DIGIT.test(char));
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}

function trimEdges(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && EDGE.has(text.charAt(start))) {
    start += 1;
  }
  while (end > start && EDGE.has(text.charAt(end - 1))) {
    end -= 1;
  }
  return text.slice(start, end);
}

/** Reads a message's characters, skipping code (fenced blocks and inline spans). */
class Scanner {
  private readonly chars: readonly string[];
  private index = 0;

  constructor(text: string) {
    this.chars = Array.from(text);
  }

  tokens(): MessageToken[] {
    const out: MessageToken[] = [];
    while (this.index < this.chars.length) {
      const char = this.chars[this.index];
      if (char === "\\" && this.chars[this.index + 1] === "`") {
        // An escaped backtick is a plain character, not code.
        this.index += 2;
      } else if ((char === "`" || char === "~") && this.skipFence(char)) {
        // Skipped a fenced block.
      } else if (char === "`") {
        this.skipInlineCode();
      } else if (isTokenChar(char)) {
        out.push(this.readToken());
      } else {
        this.index += 1;
      }
    }
    return out;
  }

  private runLength(from: number, char: string): number {
    let end = from;
    while (this.chars[end] === char) {
      end += 1;
    }
    return end - from;
  }

  private atLineStart(at: number): boolean {
    for (let i = at - 1; i >= 0; i -= 1) {
      const char = this.chars[i];
      if (char === "\n") {
        return true;
      }
      if (char !== " " && char !== "\t") {
        return false;
      }
    }
    return true;
  }

  private lineEnd(from: number): number {
    let end = from;
    while (end < this.chars.length && this.chars[end] !== "\n") {
      end += 1;
    }
    return end;
  }

  /**
   * A fence: 3 or more backticks or tildes first on a line. The block runs to a line that holds
   * only a fence of the same character at least as long, or to the end of the message when
   * none does (an unclosed fence hides the rest, as Markdown renders it).
   */
  private skipFence(char: string): boolean {
    const length = this.runLength(this.index, char);
    if (length < 3 || !this.atLineStart(this.index)) {
      return false;
    }
    let line = this.lineEnd(this.index) + 1;
    while (line < this.chars.length) {
      const end = this.lineEnd(line);
      const content = this.chars.slice(line, end).join("").trim();
      if (content.length >= length && [...content].every((c) => c === char)) {
        this.index = end;
        return true;
      }
      line = end + 1;
    }
    this.index = this.chars.length;
    return true;
  }

  /** `code`, ``co`de``: a run of n backticks up to the next run of exactly n; unclosed, they are plain. */
  private skipInlineCode(): void {
    const length = this.runLength(this.index, "`");
    let at = this.index + length;
    while (at < this.chars.length) {
      if (this.chars[at] === "`") {
        const run = this.runLength(at, "`");
        if (run === length) {
          this.index = at + run;
          return;
        }
        at += run;
      } else {
        at += 1;
      }
    }
    this.index += length;
  }

  private readToken(): MessageToken {
    const start = this.index;
    while (isTokenChar(this.chars[this.index])) {
      this.index += 1;
    }
    const text = this.chars.slice(start, this.index).join("");
    const at = this.chars[start - 1] === "@" && !isTokenChar(this.chars[start - 2]);
    return { text, core: trimEdges(text), at, port: this.portAfter() };
  }

  private portAfter(): number | null {
    if (this.chars[this.index] !== ":" || !isDigit(this.chars[this.index + 1])) {
      return null;
    }
    let end = this.index + 1;
    while (isDigit(this.chars[end])) {
      end += 1;
    }
    const next = this.chars[end];
    if (next !== undefined && LETTER_OR_DIGIT.test(next)) {
      return null;
    }
    const port = Number(this.chars.slice(this.index + 1, end).join(""));
    // The port belongs to the host before it: its digits are no token of their own.
    this.index = end;
    return port;
  }
}

/** The tokens of a message outside its code, in order. */
export function tokenizeMessage(text: string): MessageToken[] {
  return new Scanner(text).tokens();
}

function tokenIs(token: MessageToken, key: string): boolean {
  return token.text.toLowerCase() === key || token.core.toLowerCase() === key;
}

/**
 * The paired relays an owner's message mentions (R-LOCK-01(a)), in the order of `relays`, each
 * once. A relay counts when a token of the message equals its name or its host, case-insensitively:
 * - `@name` always counts; a name or host that is an IP address or `localhost` counts only so
 *   (R-LOCK-02);
 * - a host counts with or without its port, but a different port than the relay's is another
 *   relay (`build-box.example.com:9000` does not mention `build-box.example.com:8443`);
 * - text inside fenced code blocks and inline code does not count: a pasted log or command is
 *   not the owner addressing a relay;
 * - an IPv6 host cannot be written as one token; such a relay is mentioned by its name.
 */
export function findMentionedRelays(text: string, relays: readonly NamedRelay[]): string[] {
  const tokens = tokenizeMessage(text);
  const found: string[] = [];
  for (const relay of relays) {
    const name = relay.name.toLowerCase();
    const nameNeedsAt = countsOnlyWithAt(name);
    const host = normalizeHost(relay.host);
    const hostNeedsAt = countsOnlyWithAt(host.host);
    const mentioned = tokens.some(
      (token) =>
        (name !== "" && tokenIs(token, name) && (token.at || !nameNeedsAt)) ||
        (host.host !== "" &&
          tokenIs(token, host.host) &&
          (token.at || !hostNeedsAt) &&
          sameHost(host, { host: host.host, port: token.port })),
    );
    if (mentioned && !found.includes(relay.name)) {
      found.push(relay.name);
    }
  }
  return found;
}
