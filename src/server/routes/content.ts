import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import {
  CONTENT_KINDS,
  contentItemInputSchema,
  contentItemSchema,
  contentListQuerySchema,
  contentListSchema,
} from "../../shared/schemas/content.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { createContentItem } from "../services/content/create-content-item.js";
import { deleteContentItem } from "../services/content/delete-content-item.js";
import { listContentItems } from "../services/content/list-content-items.js";
import { updateContentItem } from "../services/content/update-content-item.js";

const kindParams = z.object({ kind: z.enum(CONTENT_KINDS, { error: "Tipo de conteúdo inválido" }) });
const itemParams = kindParams.extend({ id: z.uuid("Item não encontrado") });
const tags = ["conteúdo"];

/** Risks, benefits and aftercare items of the clinic: /api/content/riscos|beneficios|cuidados. */
export const contentRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);
  const auditOf = (request: { ip: string; headers: { "user-agent"?: string } }) => ({
    ip: request.ip,
    userAgent: request.headers["user-agent"],
  });

  app.get(
    "/api/content/:kind",
    {
      schema: {
        tags,
        summary: "Itens de um tipo, por título (até 200)",
        params: kindParams,
        querystring: contentListQuerySchema,
        response: { 200: contentListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "content.read");
      return listContentItems(db, actor, request.params.kind, request.query);
    },
  );

  app.post(
    "/api/content/:kind",
    {
      schema: {
        tags,
        summary: "Cadastra um item",
        params: kindParams,
        body: contentItemInputSchema,
        response: { 201: contentItemSchema },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "content.write");
      return reply.status(201).send(
        await createContentItem({
          db,
          actor,
          kind: request.params.kind,
          input: request.body,
          audit: auditOf(request),
        }),
      );
    },
  );

  app.put(
    "/api/content/:kind/:id",
    {
      schema: {
        tags,
        summary: "Atualiza um item",
        params: itemParams,
        body: contentItemInputSchema,
        response: { 200: contentItemSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "content.write");
      return updateContentItem({
        db,
        actor,
        kind: request.params.kind,
        id: request.params.id,
        input: request.body,
        audit: auditOf(request),
      });
    },
  );

  app.delete(
    "/api/content/:kind/:id",
    { schema: { tags, summary: "Exclui um item (e suas associações)", params: itemParams } },
    async (request, reply) => {
      const actor = currentUser(request);
      authorize(actor, "content.write");
      await deleteContentItem({ db, actor, kind: request.params.kind, id: request.params.id, audit: auditOf(request) });
      return reply.status(204).send();
    },
  );
};
