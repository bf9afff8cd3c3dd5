import { acknowledged, slots } from "./ledger-changes";
import type { Check, LedgerInput } from "./ledger-check";
import { deliveries, ownerStream } from "./ledger-events";
import { noInternal, nothingLeftBehind, settled, tasks } from "./ledger-leftovers";
import { answered, atMostOnce } from "./ledger-turns";

export type { Check, LedgerInput } from "./ledger-check";

/** The ledger's checks, in the order the report prints them. */
export function readLedger(input: LedgerInput): Check[] {
  return [
    acknowledged(input),
    atMostOnce(input),
    answered(input),
    slots(input),
    deliveries(input),
    settled(input),
    noInternal(input),
    nothingLeftBehind(input),
    ownerStream(input),
    tasks(input),
  ];
}
