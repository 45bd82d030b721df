import type { FastifyInstance } from "fastify";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "../../shared/schemas/safe-input.js";
import { AppError } from "../errors.js";

/**
 * Second wall behind the schemas' text(): no request reaches a handler with a NUL byte or a lone
 * surrogate in its path parameters, query or JSON body — keys included, on every route, even one
 * whose schema forgot (issue 15). PostgreSQL refuses NUL in text; answering 400 here keeps that a
 * clear pt-BR message instead of a 500.
 */
export function rejectUnsafeText(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    for (const [part, value] of [
      ["params", request.params],
      ["query", request.query],
      ["body", request.body],
    ] as const) {
      const path = findUnsafeText(value);
      if (path) {
        throw new AppError("VALIDATION", UNSAFE_TEXT_MESSAGE, {
          issues: [{ path: path.join(".") || part, message: UNSAFE_TEXT_MESSAGE }],
        });
      }
    }
  });
}
