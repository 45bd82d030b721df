import { desc, eq } from "drizzle-orm";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Db } from "../../db/client.js";
import { emailOutbox } from "../../db/schema.js";
import { AppError } from "../errors.js";
import type { SecretBox } from "../lib/secret-box.js";
import { type OutboxBody, openOutboxBody, type StoredOutboxBody } from "../services/email/outbox-body.js";

function openedOrNull(box: SecretBox, row: StoredOutboxBody): OutboxBody | null {
  try {
    return openOutboxBody(box, row);
  } catch {
    return null;
  }
}

function isLoopback(ip: string): boolean {
  return ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
}

/**
 * Development only (never registered in production): the e-mails the app would have sent, so a
 * developer can follow a reset link without an SMTP server. The outbox holds every clinic's mail
 * (reset links included), so it answers only requests from this machine: a server started
 * without NODE_ENV=production must not hand it to the network. `?to=` keeps one address's mail
 * (the browser tests run side by side and each reads only its own).
 */
export const devOutboxRoutes: FastifyPluginAsyncZod<{ db: Db; secretBox: SecretBox }> = async (
  app,
  { db, secretBox },
) => {
  app.get(
    "/api/dev/outbox",
    {
      schema: {
        tags: ["desenvolvimento"],
        summary: "Últimos e-mails da caixa de saída (somente fora de produção)",
        querystring: z.object({ to: z.string().trim().min(1).max(320).optional() }),
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
    async (request) => {
      if (!isLoopback(request.ip)) throw new AppError("NOT_FOUND");
      const { to } = request.query;
      const rows = await db
        .select()
        .from(emailOutbox)
        .where(to === undefined ? undefined : eq(emailOutbox.to_address, to))
        .orderBy(desc(emailOutbox.created_at))
        .limit(50);
      return {
        items: rows.map((row) => {
          const body = openedOrNull(secretBox, row) ?? {
            subject: null,
            text: "(texto cifrado com outra chave ou alterado: não pode ser aberto)",
            html: null,
          };
          return {
            id: row.id,
            to: row.to_address,
            subject: body.subject ?? row.subject,
            text: body.text,
            status: row.status,
            created_at: row.created_at.toISOString(),
          };
        }),
      };
    },
  );
};
