import { isUtf8 } from "node:buffer";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { findUnsafeText, UNSAFE_TEXT_MESSAGE } from "../../shared/schemas/safe-input.js";
import { AppError, errorBody } from "../errors.js";

/**
 * Second wall behind the schemas' text(): no request reaches a handler with a NUL byte or a lone
 * surrogate in its path parameters, query or JSON body — keys included, on every route, even one
 * whose schema forgot. PostgreSQL refuses NUL in text; answering 400 here keeps that a
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

/**
 * JSON bodies must be UTF-8. Node would decode stray bytes (\xff, a cut-off sequence) to U+FFFD
 * and a patient's name would be saved with "��" in it, silently; refused here in Portuguese
 * instead. The parsing itself stays Fastify's own (prototype-poisoning checks included).
 */
export function requireUtf8Json(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "buffer" }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!isUtf8(bytes)) {
      done(
        new AppError("VALIDATION", UNSAFE_TEXT_MESSAGE, { issues: [{ path: "body", message: UNSAFE_TEXT_MESSAGE }] }),
        undefined,
      );
      return;
    }
    parseJson(request, bytes.toString("utf8"), done);
  });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route runs — an address whose
 * %-escapes are not UTF-8 (`/api/documents/%ff`), a path parameter over the router's length limit —
 * answered in the app's error shape and in Portuguese instead of Fastify's English JSON.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    void reply.status(414).send(errorBody("URL_TOO_LONG"));
    return;
  }
  void reply.status(400).send(errorBody("BAD_URL"));
}
