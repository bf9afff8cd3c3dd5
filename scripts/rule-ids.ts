// The rule ids of the requirements catalogue (docs/RELAY_TOOL_SPEC.md): the ones it defines, and
// the ones a file cites, with the short forms the tests use for several ids expanded.

export interface Rule {
  id: string;
  /** The heading the rule stands under, e.g. `33.2 schedule`. */
  section: string;
}

const RULE_LINE = /^- \*\*(R-[A-Z]+-\d+)\*\*/;
const HEADING = /^#{2,3} (.+)$/;

/** The rules the catalogue defines (each on a line `- **R-XXX-NN** …`), in the catalogue's order. */
export function definedRules(catalogue: string): Rule[] {
  const rules: Rule[] = [];
  let section = "";
  for (const line of catalogue.split("\n")) {
    const heading = HEADING.exec(line);
    if (heading?.[1]) {
      section = heading[1].trim();
      continue;
    }
    const rule = RULE_LINE.exec(line);
    if (rule?.[1]) {
      rules.push({ id: rule[1], section });
    }
  }
  return rules;
}

const ID = /(?<![A-Za-z0-9-])R-([A-Z]+)-(\d+)/g;
// What may follow an id and name more ids of its prefix: a sub-point such as `(a)`, then `/NN` (one
// more id) or `…NN`, `...NN`, `–NN` (a range, both ends included); the number may carry the prefix
// again (`R-LSES-01 … R-LSES-07`).
const NEXT = /^(?:\([a-z]\))?\s?(\/|…|\.\.\.|–)\s?(?:R-([A-Z]+)-)?(\d+)/;

/**
 * The ids a text cites. `R-SCH-04…07` and `R-SCH-04 … R-SCH-07` cite 04, 05, 06 and 07;
 * `R-ANS-01/06` cites 01 and 06; `R-FEW-12/13/14` all three; `R-CGRP-07(d)` cites R-CGRP-07.
 * A range or list that changes prefix (`R-USAGE-02/R-BILL-06`) cites its two ends only.
 */
export function citedIds(text: string): Set<string> {
  const ids = new Set<string>();
  for (const match of text.matchAll(ID)) {
    const [whole, prefix, digits] = match;
    if (!prefix || !digits) {
      continue;
    }
    const id = (n: number) => `R-${prefix}-${String(n).padStart(digits.length, "0")}`;
    let last = Number(digits);
    ids.add(id(last));
    let rest = text.slice((match.index ?? 0) + whole.length);
    for (let next = NEXT.exec(rest); next; next = NEXT.exec(rest)) {
      const [step, op, otherPrefix, to] = next;
      if ((otherPrefix && otherPrefix !== prefix) || !to) {
        break;
      }
      const end = Number(to);
      const from = op === "/" || end <= last ? end : last + 1;
      for (let n = from; n <= end; n++) {
        ids.add(id(n));
      }
      last = end;
      rest = rest.slice(step.length);
    }
  }
  return ids;
}
