import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../errors.js";
import type { LiveUpdates } from "../live/live-updates.js";
import { currentUser, requireUser } from "../plugins/auth.js";

/**
 * GET /api/events: the signed-in user's live updates (decision 022) as server-sent events —
 * `document`, `patient`, `profile` with `{id}` (a document's also `status`), `ready` on connect,
 * `resync` when changes may have been missed. Clinic and user come from the session only.
 */
export const eventRoutes: FastifyPluginAsyncZod<{ live: LiveUpdates }> = async (app, { live }) => {
  app.get(
    "/api/events",
    {
      preHandler: requireUser,
      schema: {
        tags: ["tempo real"],
        summary:
          "Atualizações ao vivo da clínica (text/event-stream): documentos, pacientes e usuários que mudaram, só ids",
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      live.hub.assertRoom(user);
      try {
        await live.listening();
      } catch (error) {
        request.log.error({ err: error }, "live: cannot listen");
        throw new AppError("LIVE_UNAVAILABLE");
      }
      live.hub.assertRoom(user); // again: the app may have begun closing meanwhile
      // From here the response is ours: written to the socket as events happen.
      reply.hijack();
      live.hub.open(user, reply.raw);
    },
  );
};
