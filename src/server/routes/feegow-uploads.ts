import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import {
  feegowUploadListSchema,
  feegowUploadQuerySchema,
  feegowUploadRequestResultSchema,
  feegowUploadSchema,
} from "../../shared/schemas/feegow.js";
import type { PdfRenderer } from "../pdf-pool/pdf-pool.js";
import { currentUser, requireUser, SESSION_COOKIE } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { listDocumentFeegowUploads, listFeegowUploads } from "../services/feegow/list-feegow-uploads.js";
import { requestFeegowUpload } from "../services/feegow/request-feegow-upload.js";
import { retryFeegowUpload } from "../services/feegow/retry-feegow-upload.js";
import type { FileStorage } from "../storage/file-storage.js";

const tags = ["integração"];
const documentParams = z.object({ id: z.uuid("Documento não encontrado") });
const uploadParams = z.object({ id: z.uuid("Envio ao Feegow não encontrado") });

/**
 * PDFs to the patient's record in Feegow (decision 016, second step): queued as jobs, their state
 * read by the documents list, the detail page and (later) the notices.
 */
export const feegowUploadRoutes: FastifyPluginAsyncZod<{ db: Db; storage: FileStorage; pdf: PdfRenderer }> = async (
  app,
  { db, storage, pdf },
) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });
  const perSession = (max: number) => ({
    rateLimit: {
      max,
      timeWindow: "1 minute",
      keyGenerator: (request: FastifyRequest) => request.cookies[SESSION_COOKIE] ?? request.ip,
    },
  });

  app.post(
    "/api/documents/:id/feegow-upload",
    {
      config: perSession(60),
      schema: {
        tags,
        summary: "Gerar e Enviar PDF: põe na fila o envio do PDF atual ao prontuário do paciente no Feegow",
        params: documentParams,
        response: { 202: feegowUploadRequestResultSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return reply.status(202).send(
        await requestFeegowUpload({
          db,
          storage,
          renderer: pdf,
          actor,
          contratoId: request.params.id,
          audit: auditOf(request),
        }),
      );
    },
  );

  app.get(
    "/api/documents/:id/feegow-uploads",
    {
      schema: {
        tags,
        summary: "Envios deste documento ao Feegow, mais novos primeiro",
        params: documentParams,
        response: { 200: feegowUploadListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return listDocumentFeegowUploads(db, actor, request.params.id);
    },
  );

  app.get(
    "/api/integration/feegow/uploads",
    {
      schema: {
        tags,
        summary:
          "Estado dos envios ao Feegow: o último de cada documento informado, ou os da clínica por status (avisos)",
        querystring: feegowUploadQuerySchema,
        response: { 200: feegowUploadListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return listFeegowUploads(db, actor, request.query);
    },
  );

  app.post(
    "/api/integration/feegow/uploads/:id/retry",
    {
      schema: {
        tags,
        summary: "Tentar de novo: volta um envio que falhou para a fila",
        params: uploadParams,
        response: { 200: feegowUploadSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return retryFeegowUpload({ db, actor, uploadId: request.params.id, audit: auditOf(request) });
    },
  );
};
