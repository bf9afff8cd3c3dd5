import { z } from "zod";

/** An action's argument object: its `action` literal first, then its arguments in spec order. */
export function actionArgs<Name extends string, Shape extends z.ZodRawShape>(action: Name, shape: Shape) {
  return z.object({ action: z.literal(action), ...shape });
}
