import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { text } from "../../shared/schemas/safe-input.js";
import type { Db } from "../../db/client.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { verifyAuditChain } from "../services/audit/verify-audit-chain.js";
import { listTrailTimestamps } from "../services/audit/trail-timestamps.js";

const reportSchema = z.object({
  tenant_id: text(),
  intact: z.boolean(),
  first_broken_seq: z.number().int().nullable(),
  events: z.number().int(),
  anchored_seq: z.number().int(),
  timestamps: z.object({
    valid: z.number().int(),
    stamped_seq: z.number().int(),
    stamped_at: z.string().nullable(),
  }),
  problems: z.array(text()),
});

export const auditRoutes: FastifyPluginAsyncZod<{ db: Db; anchorKey: Buffer }> = async (app, { db, anchorKey }) => {
  app.addHook("preHandler", requireUser);
  app.get(
    "/api/audit/verify",
    {
      schema: {
        tags: ["auditoria"],
        summary: "Verifica a cadeia de hashes da trilha de auditoria da clínica (proprietário)",
        response: { 200: reportSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "users.manage");
      return verifyAuditChain(db, anchorKey, actor.tenantId);
    },
  );
  app.get(
    "/api/audit/timestamps",
    {
      schema: {
        tags: ["auditoria"],
        summary: "Carimbos do tempo da trilha de auditoria da clínica, do mais recente (proprietário e administração)",
        querystring: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: {
          200: z.object({
            items: z.array(
              z.object({
                seq: z.number().int(),
                hash: text(),
                gen_time: z.string(),
                tsa: text(),
                token_b64: z.string(),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "settings.manage");
      return { items: await listTrailTimestamps(db, actor.tenantId, request.query.limit) };
    },
  );
};
