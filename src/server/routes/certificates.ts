import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { MAX_CERTIFICATE_FILE_BYTES } from "../../shared/reference/limits.js";
import {
  certificateListSchema,
  certificateSchema,
  certificateUploadResultSchema,
  certificateUploadSchema,
} from "../../shared/schemas/certificates.js";
import type { SecretBox } from "../lib/secret-box.js";
import type { CertificateChecks } from "../services/certificates/revocation/revocation-checker.js";
import { currentUser, requireUser, SESSION_COOKIE } from "../plugins/auth.js";
import { listCertificates } from "../services/certificates/list-certificates.js";
import { removeCertificate } from "../services/certificates/remove-certificate.js";
import { uploadCertificate } from "../services/certificates/upload-certificate.js";

interface CertificateRoutesOptions {
  db: Db;
  secretBox: SecretBox;
  /** The official ICP-Brasil roots and the revocation lists' source (decisions 047, 048). */
  checks: CertificateChecks;
}

const tags = ["certificados"];
const idParams = z.object({ id: z.uuid("Certificado não encontrado.") });
/** The JSON body of the largest accepted file: its base64 plus the form's fields. */
const UPLOAD_BODY_LIMIT = Math.ceil(MAX_CERTIFICATE_FILE_BYTES / 3) * 4 + 16 * 1024;

/** /certificates (spec part 1 §2, §4, §7; decision 019). Who may do what is the services' call. */
export const certificateRoutes: FastifyPluginAsyncZod<CertificateRoutesOptions> = async (
  app,
  { db, secretBox, checks },
) => {
  app.addHook("preHandler", requireUser);
  const contextOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers["user-agent"] });

  app.get(
    "/api/certificates",
    {
      schema: {
        tags,
        summary: "Certificados da clínica (provider local, mais novos primeiro); nunca o arquivo nem a senha",
        response: { 200: certificateListSchema },
      },
    },
    async (request) => listCertificates(db, checks.roots, currentUser(request)),
  );

  app.post(
    "/api/certificates",
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      // Opening a PKCS#12 is CPU work: a cap per session on top of the wrong-password lock,
      // counted after validation (a body refused by the schema opens nothing).
      config: {
        rateLimit: {
          max: 30,
          timeWindow: "1 minute",
          hook: "preHandler",
          keyGenerator: (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? request.ip,
        },
      },
      schema: {
        tags,
        summary: "Envia um certificado A1 (.pfx/.p12 em base64 + senha): conferido antes de guardado, criptografado",
        body: certificateUploadSchema,
        response: { 201: certificateUploadResultSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await uploadCertificate({
          db,
          secretBox,
          checks,
          actor: currentUser(request),
          input: request.body,
          context: contextOf(request),
        }),
      ),
  );

  app.delete(
    "/api/certificates/:id",
    {
      schema: {
        tags,
        summary: "Remove (desativa) um certificado; o registro fica, inativo",
        params: idParams,
        response: { 200: certificateSchema },
      },
    },
    async (request) =>
      removeCertificate({
        db,
        roots: checks.roots,
        actor: currentUser(request),
        id: request.params.id,
        context: contextOf(request),
      }),
  );
};
