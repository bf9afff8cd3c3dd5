/**
 * True for an IANA time zone name this runtime knows (R-FEW-07). Intl is the only clock-free
 * source available everywhere; fixed offsets such as "+01:00" are refused, since they carry no
 * daylight-saving rules and are not IANA names.
 */
export function isIanaTimeZone(value: string): boolean {
  if (!/^[A-Za-z]/.test(value)) {
    return false;
  }
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
