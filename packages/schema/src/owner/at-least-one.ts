/** Refinement for PATCH-like bodies: an empty body changes nothing and is surely a mistake. */
export function hasAnyField(body: Record<string, unknown>): boolean {
  return Object.values(body).some((value) => value !== undefined);
}
