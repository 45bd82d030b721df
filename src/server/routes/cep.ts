import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Db } from "../../db/client.js";
import { cepParamsSchema, enderecoSchema } from "../../shared/schemas/cep.js";
import type { CepSource } from "../services/cep/cep-clients.js";
import { lookupCep } from "../services/cep/lookup-cep.js";

/**
 * Public (the sign-up form uses it before there is an account), rate-limited, cached.
 * The browser never calls the postal services itself.
 */
export const cepRoutes: FastifyPluginAsyncZod<{ db: Db; sources: CepSource[] }> = async (app, { db, sources }) => {
  app.get(
    "/api/cep/:cep",
    {
      config: { rateLimit: { max: 60, timeWindow: "1 minute" } },
      schema: {
        tags: ["endereço"],
        summary: "Endereço de um CEP (ViaCEP, com BrasilAPI de reserva)",
        params: cepParamsSchema,
        response: { 200: enderecoSchema },
      },
    },
    async (request, reply) => {
      const address = await lookupCep({ db, sources, cep: request.params.cep, log: request.log });
      reply.header("cache-control", "public, max-age=86400");
      return address;
    },
  );
};
