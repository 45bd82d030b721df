import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import {
  noticeListQuerySchema,
  noticeListSchema,
  noticeReadSchema,
  unreadNoticesSchema,
} from "../../shared/notices/notice-schemas.js";
import { currentUser, requireUser } from "../plugins/auth.js";
import { authorize } from "../policies/roles.js";
import { countUnreadNotices } from "../services/notices/count-unread-notices.js";
import { listNotices } from "../services/notices/list-notices.js";
import { markNoticesRead } from "../services/notices/mark-notices-read.js";

const tags = ["avisos"];

/** Avisos (/notifications, decision 028): what needs the user's attention, by their role. */
export const noticeRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.addHook("preHandler", requireUser);

  app.get(
    "/api/notices",
    {
      schema: {
        tags,
        summary:
          "Avisos do usuário, mais novos primeiro (paginados), com a contagem de não lidos; a primeira página conta como visita",
        querystring: noticeListQuerySchema,
        response: { 200: noticeListSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "notices.read");
      return listNotices(db, actor, request.query);
    },
  );

  app.get(
    "/api/notices/unread-count",
    { schema: { tags, summary: "Quantos avisos não lidos (até 100)", response: { 200: unreadNoticesSchema } } },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "notices.read");
      return countUnreadNotices(db, actor);
    },
  );

  app.post(
    "/api/notices/read",
    {
      schema: {
        tags,
        summary: "Marca avisos como lidos: os informados (chaves) ou todos (todas: true)",
        body: noticeReadSchema,
        response: { 200: unreadNoticesSchema },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      authorize(actor, "notices.read");
      return markNoticesRead(db, actor, request.body);
    },
  );
};
