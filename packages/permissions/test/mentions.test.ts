import { describe, expect, it } from "vitest";
import { findMentionedRelays, type NamedRelay, tokenizeMessage } from "../src";
import { forSeeds, type Random } from "./seeded-random";

const RELAYS: NamedRelay[] = [
  { name: "build-box", host: "build-box.example.com:8443" },
  { name: "desk", host: "desk.lan" },
  { name: "10.0.0.5", host: "10.0.0.5" },
  { name: "localhost", host: "localhost:7777" },
  { name: "gpu", host: "https://GPU.example.org/relay" },
  { name: "lab", host: "192.168.1.20:8443" },
];

describe("findMentionedRelays: R-LOCK-01(a), R-LOCK-02, on tricky text", () => {
  const table: [string, string, string[]][] = [
    ["a plain name", "ask build-box for the logs", ["build-box"]],
    ["any case", "BUILD-Box, please", ["build-box"]],
    ["after a comma", "build-box, then the rest", ["build-box"]],
    ["in parentheses", "(build-box)", ["build-box"]],
    ["before a sentence dot", "Check build-box.", ["build-box"]],
    ["before an ellipsis", "Check build-box...", ["build-box"]],
    ["possessive", "build-box's log", ["build-box"]],
    ["typographic possessive", "build-box’s log", ["build-box"]],
    ["quoted", 'the relay "desk" is mine', ["desk"]],
    ["emphasis", "_desk_ and **build-box**", ["build-box", "desk"]],
    ["a trailing hyphen is an edge", "desk- and more", ["desk"]],
    ["em dash between", "desk—build-box", ["build-box", "desk"]],
    ["at the very start and end", "desk", ["desk"]],
    ["across lines", "first\ndesk\nlast", ["desk"]],
    ["a longer word is not the name", "build-boxes are great", []],
    ["not in desktop", "my desktop", []],
    ["not inside a hyphenated name", "my-desk-2", []],
    ["not inside an underscored name", "desk_old", []],
    ["not inside a dotted name", "desk.old", []],
    ["not with letters of another script glued on", "desk日本", []],
    ["a name among accented words", "déskop desk", ["desk"]],
    ["@name", "@desk look", ["desk"]],
    ["@ and a longer word", "@desktop", []],
    ["its host", "desk.lan is up", ["desk"]],
    ["its host in a URL", "see https://build-box.example.com/x", ["build-box"]],
    ["its host with its port", "build-box.example.com:8443 answers", ["build-box"]],
    ["its host with its port in a URL", "https://build-box.example.com:8443/health", ["build-box"]],
    ["its host with another port is another relay", "build-box.example.com:9000", []],
    ["a host written without the port", "curl build-box.example.com", ["build-box"]],
    ["a host taken from a URL", "gpu.example.org", ["gpu"]],
    ["a host ending a sentence", "It runs on gpu.example.org.", ["gpu"]],
    ["a host in an e-mail address", "mail ops@desk.lan", ["desk"]],
    ["a subdomain is not the host", "ci.desk.lan", []],
    ["an IP name without @", "ping 10.0.0.5 now", []],
    ["an IP name with @", "@10.0.0.5 please", ["10.0.0.5"]],
    ["an IP name with @ and a dot after", "ask @10.0.0.5.", ["10.0.0.5"]],
    ["an IP host without @", "192.168.1.20:8443 is slow", []],
    ["an IP host with @", "@192.168.1.20 is slow", ["lab"]],
    ["localhost without @", "localhost is down", []],
    ["localhost with @", "@localhost restart", ["localhost"]],
    ["localhost in an address", "root@localhost", []],
    ["localhost with @ and port", "@localhost:7777", ["localhost"]],
    ["inline code", "`build-box`", []],
    ["inline code, then prose", "run `desk` but ask build-box", ["build-box"]],
    ["a double-backtick span holding a backtick", "use ``a ` desk`` here", []],
    ["an unclosed backtick is plain text", "`desk", ["desk"]],
    ["escaped backticks are plain text", "\\`desk\\`", ["desk"]],
    ["a fenced block", "```\nbuild-box\n```", []],
    [
      "a fenced block with info string, then prose",
      "```bash\ncurl https://build-box.example.com\n```\nthen ask desk",
      ["desk"],
    ],
    ["an unclosed fence hides the rest", "see:\n```\nlog from build-box\ndesk", []],
    ["a longer fence needs a closing as long", "````\n```\ndesk\n````\nbuild-box", ["build-box"]],
    ["an indented fence", "  ```\n  desk\n  ```\nbuild-box", ["build-box"]],
    ["a tilde fence", "~~~\ndesk\n~~~", []],
    ["tildes inside a line are no fence", "desk ~~~ build-box", ["build-box", "desk"]],
    ["a fence opened mid-line is an inline span", "log: ```desk``` and gpu", ["gpu"]],
    ["each relay once, in list order", "desk desk build-box @desk", ["build-box", "desk"]],
    ["nothing", "", []],
  ];

  it.each(table)("%s: %j", (_why, text, expected) => {
    expect(findMentionedRelays(text, RELAYS)).toEqual(expected);
  });

  it("R-LOCK-02: a name that is an IPv6-free IP or localhost never counts without @, even as a host", () => {
    expect(findMentionedRelays("10.0.0.5 localhost 192.168.1.20", RELAYS)).toEqual([]);
  });

  it("reads tokens with their @, core and port", () => {
    expect(tokenizeMessage("ops@desk.lan, @build-box.example.com:8443/x `hidden` _em_")).toEqual([
      { text: "ops", core: "ops", at: false, port: null },
      { text: "desk.lan", core: "desk.lan", at: false, port: null },
      { text: "build-box.example.com", core: "build-box.example.com", at: true, port: 8443 },
      { text: "x", core: "x", at: false, port: null },
      { text: "_em_", core: "em", at: false, port: null },
    ]);
  });
});

// Characters that never belong to a token, so they always separate one.
const SEPARATORS = [
  " ",
  "  ",
  ", ",
  "; ",
  "! ",
  "? ",
  "\n",
  "(",
  ")",
  '"',
  "'",
  ": ",
  "/",
  "*",
  "[",
  "]",
  "\t",
];
const NAME_START = "abcdefghijklmnopqrstuvwxyz0123456789";
const NAME_REST = `${NAME_START}._-`;
// Filler words use another script, so they can never equal a generated (ASCII) name.
const FILLER = "αβγδεζηθικλμνξοπρστυφχψω";

/** A relay name that needs no @ (it has a letter, so it is no IP address, and it is not localhost). */
function plainName(random: Random): string {
  for (;;) {
    const name = random.string(NAME_START, 1, 1) + random.string(NAME_REST, 0, 12);
    if (/[a-z]/.test(name) && name !== "localhost") {
      return name;
    }
  }
}

function randomCase(random: Random, text: string): string {
  return [...text].map((char) => (random.bool() ? char.toUpperCase() : char)).join("");
}

function filler(random: Random): string {
  return Array.from(
    { length: random.int(0, 6) },
    () => random.string(FILLER, 1, 6) + random.pick(SEPARATORS),
  ).join("");
}

describe("findMentionedRelays, properties (seeded generator: fast-check is not a dependency here)", () => {
  it("R-LOCK-01(a): a name written as a whole token is always found", () => {
    forSeeds(500, (random) => {
      const name = plainName(random);
      const text = `${filler(random)}${random.pick(SEPARATORS)}${random.bool(0.2) ? "@" : ""}${randomCase(random, name)}${random.pick(SEPARATORS)}${filler(random)}`;
      expect(findMentionedRelays(text, [{ name, host: "" }]), text).toEqual([name]);
    });
  });

  it("a name that only appears inside a longer token is never found", () => {
    forSeeds(500, (random) => {
      const name = plainName(random);
      // At least one side gets more token characters, ending in a letter or digit on the outside.
      const side = random.int(0, 2);
      const before =
        side !== 1 ? random.string(NAME_START + FILLER, 1, 1) + random.string(NAME_REST, 0, 3) : "";
      const after =
        side !== 0 ? random.string(NAME_REST, 0, 3) + random.string(NAME_START + FILLER, 1, 1) : "";
      const text = `${filler(random)}${random.bool(0.2) ? "@" : ""}${before}${randomCase(random, name)}${after}${random.pick(SEPARATORS)}${filler(random)}`;
      expect(findMentionedRelays(text, [{ name, host: "" }]), text).toEqual([]);
    });
  });

  it("a name inside code is never found", () => {
    forSeeds(300, (random) => {
      const name = plainName(random);
      const code = random.bool()
        ? `\`${filler(random)}${name} ${filler(random)}\``
        : `\n\`\`\`sh\n${filler(random)}${name}\n${filler(random)}\n\`\`\`\n`;
      const text = `${filler(random)}${code}${filler(random)}`;
      expect(findMentionedRelays(text, [{ name, host: "" }]), text).toEqual([]);
    });
  });

  it("the result lists only relays of the list, each once", () => {
    forSeeds(300, (random) => {
      const relays = Array.from({ length: random.int(0, 4) }, () => ({ name: plainName(random), host: "" }));
      const strangers = Array.from({ length: 3 }, () => plainName(random));
      const words = Array.from({ length: random.int(0, 12) }, () =>
        random.pick([...relays.map((relay) => relay.name), ...strangers, random.string(FILLER, 1, 4)]),
      );
      const text = words.map((word) => word + random.pick(SEPARATORS)).join("");
      const found = findMentionedRelays(text, relays);
      const names = relays.map((relay) => relay.name);
      expect(
        found.every((name) => names.includes(name)),
        text,
      ).toBe(true);
      expect(new Set(found).size, text).toBe(found.length);
    });
  });
});
