import { z } from "zod";

// ISO 8601 extended form with a mandatory offset or Z (DESIGN GAP-18); seconds and fraction optional.
const ISO_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    return leap ? 29 : 28;
  }
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True for an ISO 8601 date-time with an offset or Z whose calendar date exists. */
export function isIsoDateTimeWithOffset(value: string): boolean {
  const match = ISO_WITH_OFFSET.exec(value);
  if (!match) {
    return false;
  }
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Instants in results and events, e.g. "2026-11-02T02:00:00.000Z". */
export const IsoDateTimeSchema = z
  .string()
  .refine(isIsoDateTimeWithOffset, { error: "expected an ISO 8601 date-time with an offset or Z" });
export type IsoDateTime = z.infer<typeof IsoDateTimeSchema>;
