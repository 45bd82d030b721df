import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import {
  documentCancelInputSchema,
  documentCountersSchema,
  documentCreateInputSchema,
  documentDetailSchema,
  documentFormOptionsSchema,
  documentListQuerySchema,
  documentListSchema,
  documentSummarySchema,
} from "../../shared/schemas/document.js";
import { AppError } from "../errors.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { cancelDocument } from "../services/documents/cancel-document.js";
import { countDocuments } from "../services/documents/count-documents.js";
import { createDocument } from "../services/documents/create-document.js";
import { deleteDocument } from "../services/documents/delete-document.js";
import { generateDocumentPdf } from "../services/documents/generate-document-pdf.js";
import { getDocument } from "../services/documents/get-document.js";
import { getDocumentFormOptions } from "../services/documents/get-document-form-options.js";
import { getDocumentPdf } from "../services/documents/get-document-pdf.js";
import { listDocuments } from "../services/documents/list-documents.js";
import { listRecentDocuments } from "../services/documents/list-recent-documents.js";
import type { PdfRenderer } from "../pdf-pool/pdf-pool.js";
import type { FileStorage } from "../storage/file-storage.js";

const idParams = z.object({ id: z.uuid("Documento não encontrado") });
const createdSchema = z.object({
  id: text(),
  /**
   * False when the document was saved but its PDF was not made (it failed, or the PDF pool was
   * full): it is made on download or with POST /api/documents/:id/pdf.
   */
  pdf_gerado: z.boolean(),
  pdf_nome: text().nullable(),
});
const tags = ["documentos"];

export const documentRoutes: FastifyPluginAsyncZod<{ db: Db; storage: FileStorage; pdf: PdfRenderer }> = async (
  app,
  { db, storage, pdf: renderer },
) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/documents",
    {
      schema: {
        tags,
        summary: "Documentos da clínica, mais novos primeiro (busca, filtros e páginas no servidor)",
        querystring: documentListQuerySchema,
        response: { 200: documentListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return listDocuments(db, actor, request.query);
    },
  );

  app.get(
    "/api/documents/counters",
    {
      schema: {
        tags,
        summary: "Contadores por status (Total, Assinados, Pendentes, Visualizados, Expirados)",
        response: { 200: documentCountersSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return countDocuments(db, actor);
    },
  );

  app.get(
    "/api/documents/recent",
    {
      schema: {
        tags,
        summary: "Os 5 documentos mais recentes (dashboard)",
        response: { 200: z.object({ items: z.array(documentSummarySchema) }) },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return { items: await listRecentDocuments(db, actor) };
    },
  );

  app.get(
    "/api/documents/form-options",
    {
      schema: {
        tags,
        summary: "Templates publicados, médicos responsáveis e textos padrão para um novo documento",
        response: { 200: documentFormOptionsSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      return getDocumentFormOptions(db, actor);
    },
  );

  app.post(
    "/api/documents",
    {
      schema: {
        tags,
        summary: "Cria um documento (modelo congelado, validade de 7 dias) e gera o PDF",
        body: documentCreateInputSchema,
        response: { 201: createdSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const { id } = await createDocument({ db, actor, input: request.body, audit: auditOf(request) });
      try {
        const pdf = await generateDocumentPdf({ db, storage, renderer, actor, id, audit: auditOf(request) });
        return reply.status(201).send({ id, pdf_gerado: true, pdf_nome: pdf.nome });
      } catch (error) {
        // The document is kept either way; its PDF is made on download (decision 012).
        if (error instanceof AppError && error.code === "SERVER_BUSY") {
          request.log.warn({ documentId: id }, "PDF pool busy after document creation; PDF left for later");
        } else {
          request.log.error({ err: error, documentId: id }, "PDF generation failed after document creation");
        }
        return reply.status(201).send({ id, pdf_gerado: false, pdf_nome: null });
      }
    },
  );

  app.get(
    "/api/documents/:id",
    {
      schema: {
        tags,
        summary: "Um documento com conteúdo congelado, partes e trilha de auditoria",
        params: idParams,
        response: { 200: documentDetailSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      return getDocument({ db, actor, id: request.params.id, audit: auditOf(request) });
    },
  );

  app.post(
    "/api/documents/:id/pdf",
    {
      schema: {
        tags,
        summary: "Gera novamente o PDF do documento",
        params: idParams,
        response: { 200: z.object({ pdf_nome: text() }) },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "documents.write");
      const pdf = await generateDocumentPdf({
        db,
        storage,
        renderer,
        actor,
        id: request.params.id,
        audit: auditOf(request),
      });
      return { pdf_nome: pdf.nome };
    },
  );

  app.get(
    "/api/documents/:id/pdf",
    { schema: { tags, summary: "Baixa o PDF do documento (gera se ainda não houver)", params: idParams } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      const pdf = await getDocumentPdf({
        db,
        storage,
        renderer,
        actor,
        id: request.params.id,
        audit: auditOf(request),
      });
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `attachment; filename="${pdf.nome}"`)
        .header("cache-control", "private, no-store")
        .send(pdf.bytes);
    },
  );

  app.post(
    "/api/documents/:id/cancel",
    {
      schema: {
        tags,
        summary: "Cancela um documento não assinado, com motivo",
        params: idParams,
        body: documentCancelInputSchema,
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.delete");
      await cancelDocument({ db, actor, id: request.params.id, motivo: request.body.motivo, audit: auditOf(request) });
      return reply.status(204).send();
    },
  );

  app.delete(
    "/api/documents/:id",
    { schema: { tags, summary: "Exclui um rascunho (enviados são cancelados; assinados nunca)", params: idParams } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.delete");
      await deleteDocument({ db, actor, id: request.params.id, audit: auditOf(request) });
      return reply.status(204).send();
    },
  );
};
