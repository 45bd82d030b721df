import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Database } from "../../db/client.js";

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get(
    "/api/health",
    {
      schema: {
        tags: ["sistema"],
        summary: "O servidor está no ar e o banco de dados responde",
        response: {
          200: z.object({ status: z.literal("ok"), database: z.enum(["pglite", "postgres"]) }),
          503: z.object({ status: z.literal("error"), database: z.enum(["pglite", "postgres"]) }),
        },
      },
    },
    async (request, reply) => {
      try {
        await database.ping();
        return { status: "ok" as const, database: database.kind };
      } catch (error) {
        request.log.error({ err: error }, "health check failed");
        return reply.status(503).send({ status: "error" as const, database: database.kind });
      }
    },
  );
};
