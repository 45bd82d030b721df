import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { isValidCpf, normalizeCpf } from "../../shared/br/cpf.js";
import { ERRORS } from "../../shared/errors.js";
import { text } from "../../shared/schemas/safe-input.js";
import { AppError } from "../errors.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { consentResource, fhirDefinitions, RNDS_CPF_SYSTEM } from "../services/fhir/consent-resource.js";
import { getFhirConsent, searchFhirConsentsByCpf } from "../services/fhir/get-fhir-consents.js";
import type { FileStorage } from "../storage/file-storage.js";

const FHIR_JSON = "application/fhir+json; charset=utf-8";
const tags = ["FHIR"];

/** `?patient=` takes the CPF (masked or not), or RNDS's token form `system|cpf`. */
const patientParam = text({ error: "Informe o CPF do paciente em patient" })
  .trim()
  .max(120, "CPF inválido em patient")
  .transform((value) => (value.startsWith(`${RNDS_CPF_SYSTEM}|`) ? value.slice(RNDS_CPF_SYSTEM.length + 1) : value))
  .refine((value) => isValidCpf(value), "CPF inválido em patient")
  .transform((value) => normalizeCpf(value));

const outcomeSchema = z
  .object({
    resourceType: z.literal("OperationOutcome"),
    issue: z.array(z.object({ severity: z.string(), code: z.string(), diagnostics: z.string() })),
  })
  .describe("FHIR OperationOutcome, com a mensagem em português em issue[].diagnostics");
const resourceSchema = z.object({ resourceType: z.string() }).loose();

/** FHIR's issue type for our HTTP statuses. */
const ISSUE_CODE: Record<number, string> = {
  400: "invalid",
  401: "login",
  403: "forbidden",
  404: "not-found",
  409: "conflict",
  423: "lock-error",
  429: "throttled",
};

/**
 * Read-only HL7 FHIR R4 export of the clinic's consent documents (decision 063): a session or an
 * API key, the document permission table, the clinic's own documents only. Answers and errors are
 * FHIR JSON (`application/fhir+json`); errors are an OperationOutcome whose diagnostics carry the
 * same pt-BR message and code as the rest of the API.
 */
export const fhirRoutes: FastifyPluginAsyncZod<{ db: Db; storage: FileStorage; origin: string }> = async (
  app,
  { db, storage, origin },
) => {
  const defs = fhirDefinitions(origin);
  const sendFhir = (reply: FastifyReply, status: number, body: unknown) =>
    reply.status(status).header("content-type", FHIR_JSON).send(JSON.stringify(body));

  app.setErrorHandler((error, request, reply) => {
    let status = 500;
    let code = "INTERNAL";
    let message: string = ERRORS.INTERNAL.message;
    if (error instanceof AppError) {
      ({ status, code, message } = error);
      if (error.retryAfterSeconds !== undefined) reply.header("retry-after", String(error.retryAfterSeconds));
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      code = "VALIDATION";
      message = error.validation[0]?.message ?? ERRORS.VALIDATION.message;
    } else if ((error as { statusCode?: number }).statusCode && (error as { statusCode: number }).statusCode < 500) {
      status = 400;
      code = "BAD_REQUEST";
      message = ERRORS.BAD_REQUEST.message;
    } else request.log.error({ err: error }, "unhandled error");
    return sendFhir(reply, status, {
      resourceType: "OperationOutcome",
      issue: [
        {
          severity: "error",
          code: ISSUE_CODE[status] ?? (status >= 500 ? "exception" : "processing"),
          details: { coding: [{ system: defs.error, code }], text: message },
          diagnostics: message,
        },
      ],
    });
  });
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/fhir/Consent/:id",
    {
      schema: {
        tags,
        summary: "Um documento como recurso FHIR R4 Consent (application/fhir+json)",
        params: z.object({ id: z.uuid("Documento não encontrado: id inválido") }),
        response: { 200: resourceSchema, "4XX": outcomeSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      authorize(actor, "patients.read");
      const source = await getFhirConsent({ db, storage, actor, id: request.params.id, audit: auditOf(request) });
      return sendFhir(reply, 200, consentResource(source, origin));
    },
  );

  app.get(
    "/api/fhir/Consent",
    {
      schema: {
        tags,
        summary: "Busca FHIR R4 de Consent por CPF do paciente (Bundle searchset, até 100, mais recentes primeiro)",
        querystring: z.object({ patient: patientParam }),
        response: { 200: resourceSchema, "4XX": outcomeSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      authorize(actor, "patients.read");
      const { total, sources } = await searchFhirConsentsByCpf({
        db,
        storage,
        actor,
        cpf: request.query.patient,
        audit: auditOf(request),
      });
      return sendFhir(reply, 200, {
        resourceType: "Bundle",
        type: "searchset",
        total,
        link: [{ relation: "self", url: `${origin}/api/fhir/Consent?patient=${request.query.patient}` }],
        entry: sources.map((source) => ({
          fullUrl: `${origin}/api/fhir/Consent/${source.id}`,
          resource: consentResource(source, origin),
          search: { mode: "match" },
        })),
      });
    },
  );
};
