import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { clinicExportQuerySchema, patientAnonymizeSchema } from "../../shared/schemas/data-rights.js";
import { patientSchema } from "../../shared/schemas/patient.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { anonymizePatient } from "../services/data-rights/anonymize-patient.js";
import { prepareClinicExport, writeClinicExport } from "../services/data-rights/export-clinic-data.js";
import { preparePatientExport, writePatientExport } from "../services/data-rights/export-patient-data.js";
import { ExportAborted, ZipWriter } from "../services/data-rights/zip-writer.js";
import type { FileStorage } from "../storage/file-storage.js";
import type { SecretBox } from "../lib/secret-box.js";

const idParams = z.object({ id: z.uuid("Paciente não encontrado") });
const auditOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers["user-agent"] });

interface SendZipOptions {
  request: FastifyRequest;
  reply: FastifyReply;
  fileName: string;
  at: Date;
  write: (zip: ZipWriter) => Promise<void>;
}

/**
 * Sends a ZIP written while it downloads (decision 026). Everything that can refuse (404, 403,
 * 409) has already run; a failure from here on ends the download early, never as a valid file.
 */
function sendZip({ request, reply, fileName, at, write }: SendZipOptions) {
  const zip = new ZipWriter(at);
  write(zip).catch((error: Error) => {
    if (!(error instanceof ExportAborted)) request.log.error({ err: error }, "export failed while streaming");
    zip.abort(error);
  });
  return reply
    .header("content-type", "application/zip")
    .header("content-disposition", `attachment; filename="${fileName}"`)
    .header("cache-control", "private, no-store")
    .send(zip.output);
}

/** A patient's rights (LGPD art. 18) and the clinic's full export (decision 026). */
export const dataRightsRoutes: FastifyPluginAsyncZod<{ db: Db; storage: FileStorage; secretBox: SecretBox }> = async (
  app,
  { db, storage, secretBox },
) => {
  app.addHook("preHandler", requireUser);

  app.get(
    "/api/patients/:id/export",
    {
      schema: {
        tags: ["pacientes"],
        summary:
          "Baixa um ZIP com os dados do paciente, seus documentos e o registro de acessos (LGPD art. 18 II e V; proprietário e administradores)",
        params: idParams,
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "patients.exportData");
      const data = await preparePatientExport({ db, actor, patientId: request.params.id, audit: auditOf(request) });
      return sendZip({
        request,
        reply,
        fileName: data.fileName,
        at: data.at,
        write: (zip) => writePatientExport(zip, data, storage, secretBox),
      });
    },
  );

  app.post(
    "/api/patients/:id/anonymize",
    {
      schema: {
        tags: ["pacientes"],
        summary:
          "Anonimiza o paciente, de forma irreversível (recusado se houver documentos assinados: guarda de 20 anos, Lei 13.787/2018)",
        params: idParams,
        body: patientAnonymizeSchema,
        response: { 200: patientSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "patients.anonymize");
      return anonymizePatient({ db, actor, patientId: request.params.id, audit: auditOf(request) });
    },
  );

  app.get(
    "/api/settings/export",
    {
      schema: {
        tags: ["configurações"],
        summary:
          "Baixa um ZIP com todos os dados da clínica: tabelas, planilhas, arquivos, trilha de auditoria e manifesto (proprietário)",
        querystring: clinicExportQuerySchema,
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "clinic.export");
      const data = await prepareClinicExport({
        db,
        actor,
        withFiles: request.query.arquivos === "sim",
        audit: auditOf(request),
      });
      return sendZip({
        request,
        reply,
        fileName: data.fileName,
        at: data.at,
        write: (zip) => writeClinicExport({ zip, db, storage, secretBox, data }),
      });
    },
  );
};
