import { desc } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { emailOutbox } from "../../db/schema.js";

/**
 * Development only (never registered in production): the e-mails the app would have sent, so a
 * developer can follow a reset link without an SMTP server.
 */
export const devOutboxRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    "/api/dev/outbox",
    {
      schema: {
        tags: ["desenvolvimento"],
        summary: "Últimos e-mails da caixa de saída (somente fora de produção)",
        response: {
          200: z.object({
            items: z.array(
              z.object({
                id: z.string(),
                to: z.string(),
                subject: z.string(),
                text: z.string(),
                status: z.string(),
                created_at: z.string(),
              }),
            ),
          }),
        },
      },
    },
    async () => {
      const rows = await db.select().from(emailOutbox).orderBy(desc(emailOutbox.created_at)).limit(50);
      return {
        items: rows.map((row) => ({
          id: row.id,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          status: row.status,
          created_at: row.created_at.toISOString(),
        })),
      };
    },
  );
};
