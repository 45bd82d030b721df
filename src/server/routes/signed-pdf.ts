import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { getChoiceRecordPdf } from "../services/choices/get-choice-record-pdf.js";
import { getSignedPdf } from "../services/finalize/get-signed-pdf.js";
import type { FileStorage } from "../storage/file-storage.js";

const idParams = z.object({ id: z.uuid("Documento não encontrado") });
const recordParams = idParams.extend({ recordId: z.uuid("Registro não encontrado neste documento.") });

/**
 * Staff download of the sealed PDF (document + signatures + registry, PAdES), and of a sealed
 * refusal or revocation record (decision 056).
 */
export const signedPdfRoutes: FastifyPluginAsyncZod<{ db: Db; storage: FileStorage }> = async (
  app,
  { db, storage },
) => {
  app.addHook("preHandler", requireUser);

  app.get(
    "/api/documents/:id/signed-pdf",
    {
      schema: {
        tags: ["documentos"],
        summary: "Baixa o PDF assinado e selado (404 'PDF não disponível' enquanto não for selado)",
        params: idParams,
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      const pdf = await getSignedPdf(db, storage, actor, request.params.id, {
        ip: request.ip,
        userAgent: request.headers["user-agent"],
      });
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `attachment; filename="${pdf.nome}"`)
        .header("cache-control", "private, no-store")
        .send(pdf.bytes);
    },
  );

  app.get(
    "/api/documents/:id/records/:recordId/pdf",
    {
      schema: {
        tags: ["documentos"],
        summary:
          "Baixa o PDF selado de um Registro de recusa ou de revogação do documento (404 'PDF não disponível' enquanto não for selado)",
        params: recordParams,
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "documents.read");
      const pdf = await getChoiceRecordPdf({
        db,
        storage,
        actor,
        ids: { documentId: request.params.id, recordId: request.params.recordId },
        audit: { ip: request.ip, userAgent: request.headers["user-agent"] },
      });
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", `attachment; filename="${pdf.nome}"`)
        .header("cache-control", "private, no-store")
        .send(pdf.bytes);
    },
  );
};
