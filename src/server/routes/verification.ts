import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import { pdfVerdictSchema, verificationSchema } from "../../shared/schemas/signing.js";
import { AppError } from "../errors.js";
import type { PdfRenderer } from "../pdf-pool/pdf-pool.js";
import {
  checkPdfForCode,
  checkPdfWithoutCode,
  getPublicVerification,
} from "../services/sealing/public-verification.js";
import { documentSealCertificates } from "../services/sealing/document-seal-certificates.js";
import { instanceSealCertificates } from "../services/sealing/trusted-seal-certificates.js";

/** Largest PDF the public check accepts. */
export const MAX_VERIFY_PDF_BYTES = 10 * 1024 * 1024;

const codeParams = z.object({ code: text() });
const tags = ["verificação pública"];

/**
 * /verificar/:code's API, public (no session): the code printed on the registry page is the
 * capability. Rate-limited per IP; answers carry Referrer-Policy: no-referrer.
 */
export const verificationRoutes: FastifyPluginAsyncZod<{
  db: Db;
  rateLimitPerMinute: number;
  pdf: Pick<PdfRenderer, "verify">;
}> = async (app, { db, rateLimitPerMinute, pdf }) => {
  // Counted after the admission gate (decision 040): a request it turned away counts against no limit.
  const rateLimit = { max: rateLimitPerMinute, timeWindow: "1 minute", hook: "preValidation" as const };
  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("referrer-policy", "no-referrer");
    reply.header("cache-control", "no-store");
    return payload;
  });
  // Raw PDF bodies, only for the routes of this plugin (encapsulated).
  app.addContentTypeParser(
    ["application/pdf", "application/octet-stream"],
    { parseAs: "buffer", bodyLimit: MAX_VERIFY_PDF_BYTES },
    (_request, body, done) => {
      done(null, body);
    },
  );

  app.get(
    "/api/public/verify/:code",
    {
      config: { rateLimit },
      schema: {
        tags,
        summary: "Dados públicos de um documento assinado pelo código de verificação",
        params: codeParams,
        response: { 200: verificationSchema },
      },
    },
    async (request) => getPublicVerification(db, request.params.code),
  );

  app.get(
    "/api/public/seal-certificates",
    {
      config: { rateLimit },
      schema: {
        tags,
        summary:
          "Certificados do selo desta instância (impressões digitais SHA-256), para `npm run verify -- --confiaveis`; com `codigo`, também os certificados da clínica que assinaram esse documento",
        querystring: z.object({ codigo: text().optional() }),
        response: {
          200: z.object({
            certificados: z.array(z.object({ assunto: text(), sha256: text(), criado_em: text(), valido_ate: text() })),
          }),
        },
      },
    },
    async (request) => ({
      certificados: request.query.codigo
        ? await documentSealCertificates(db, request.query.codigo)
        : await instanceSealCertificates(db),
    }),
  );

  app.post(
    "/api/public/verify/:code/pdf",
    {
      config: { rateLimit },
      bodyLimit: MAX_VERIFY_PDF_BYTES,
      schema: {
        tags,
        summary: "Confere um PDF (corpo application/pdf): é idêntico ao selado? A assinatura PAdES confere?",
        params: codeParams,
        response: { 200: pdfVerdictSchema },
      },
    },
    async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError("BAD_REQUEST", "Envie o arquivo PDF.");
      return checkPdfForCode(db, pdf, request.params.code, body);
    },
  );

  app.post(
    "/api/public/verify-pdf",
    {
      config: { rateLimit },
      bodyLimit: MAX_VERIFY_PDF_BYTES,
      schema: {
        tags,
        summary:
          "Confere um PDF sem o código (corpo application/pdf): o código vem das evidências do próprio arquivo; as mesmas conferências de /verify/{code}/pdf",
        response: { 200: pdfVerdictSchema.extend({ codigo: text() }) },
      },
    },
    async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError("BAD_REQUEST", "Envie o arquivo PDF.");
      return checkPdfWithoutCode(db, pdf, body);
    },
  );
};
