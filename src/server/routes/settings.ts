import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import { clinicSettingsInputSchema, clinicSettingsSchema } from "../../shared/schemas/clinic-settings.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { getClinicSettings } from "../services/settings/get-clinic-settings.js";
import { saveClinicSettings } from "../services/settings/save-clinic-settings.js";

const tags = ["configurações"];

/** Configurações → the clinic's data and document validity (owner and administrators). */
export const settingsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/api/settings/clinic",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Dados da clínica e validade dos documentos (proprietário ou administrador)",
        response: { 200: clinicSettingsSchema },
      },
    },
    async (request) => getClinicSettings(db, currentUser(request)),
  );

  app.put(
    "/api/settings/clinic",
    {
      preHandler: requireUser,
      schema: {
        tags,
        summary: "Altera os dados da clínica e a validade dos novos documentos (proprietário ou administrador)",
        body: clinicSettingsInputSchema,
        response: { 200: clinicSettingsSchema },
      },
    },
    async (request) =>
      saveClinicSettings({
        db,
        actor: currentUser(request),
        input: request.body,
        audit: {
          ip: request.ip,
          userAgent: request.headers["user-agent"],
        },
      }),
  );
};
