import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { type ApiErrorBody, ERRORS, type ErrorCode, type FieldIssue } from "../shared/errors.js";

export class AppError extends Error {
  readonly status: number;
  /** Sent as the Retry-After header (seconds), e.g. with SERVER_BUSY. */
  retryAfterSeconds?: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly extra: { issues?: FieldIssue[]; details?: Record<string, unknown> } = {},
  ) {
    super(message ?? ERRORS[code].message);
    this.name = "AppError";
    this.status = ERRORS[code].status;
  }
}

export function errorBody(code: ErrorCode, message?: string, extra: AppError["extra"] = {}): ApiErrorBody {
  return { code, message: message ?? ERRORS[code].message, ...extra };
}

/** Maps every thrown error to the catalogue, once, for the whole app. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
      return reply.status(error.status).send(errorBody(error.code, error.message, error.extra));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues: FieldIssue[] = error.validation.map((v) => ({
        path: (v.instancePath || "").replace(/^\//, "").replaceAll("/", "."),
        message: v.message ?? ERRORS.VALIDATION.message,
      }));
      const first = issues[0]?.message;
      return reply.status(400).send(errorBody("VALIDATION", first ?? ERRORS.VALIDATION.message, { issues }));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return reply.status(413).send(errorBody("PAYLOAD_TOO_LARGE"));
    if (status === 429) return reply.status(429).send(errorBody("RATE_LIMITED"));
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type and the like: never echo internals.
      return reply.status(400).send(errorBody("BAD_REQUEST"));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.status(500).send(errorBody("INTERNAL"));
  });
}
