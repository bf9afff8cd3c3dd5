/** A promise and the function that settles it: how a test holds a transaction open. */
export function gate(): { readonly opened: Promise<void>; open(): void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `promise` is still pending after `ms`. */
export async function stillPending(promise: Promise<unknown>, ms = 200): Promise<boolean> {
  const pending = Symbol("pending");
  return (await Promise.race([promise.then(() => null), sleep(ms).then(() => pending)])) === pending;
}
