/** Expected domain outcomes (a lock held, a permission refused) are values, not exceptions. */
export type Result<T, E> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}

/** Runs a promise and turns a rejection into an `err`, for the edges where libraries throw. */
export async function wrap<T, E>(promise: Promise<T>, onError: (cause: unknown) => E): Promise<Result<T, E>> {
  try {
    return ok(await promise);
  } catch (cause) {
    return err(onError(cause));
  }
}
