import type { FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { errorBody } from "../errors.js";
import {
  type AdmissionGate,
  type AdmissionKind,
  type AdmissionLimits,
  createAdmissionGate,
  type Release,
} from "../lib/admission-gate.js";

const releaseOf = new WeakMap<FastifyRequest, Release>();

/** The routes gated: everything under /api/public/ (signing, witnesses, verification, logos). */
const isGated = (request: FastifyRequest) => request.routeOptions.url?.startsWith("/api/public/") === true;

/** The one public request that begins something: opening a signing link. */
const OPEN_LINK = "/api/public/sign/:token";

/**
 * A signer's later steps (code, verify, sign, the signed PDF) continue what opening the link began:
 * they go before newcomers. Everything else public (opening a link, /verificar, logos) is new.
 */
function kindOf(request: FastifyRequest): AdmissionKind {
  const url = request.routeOptions.url ?? "";
  if (!url.startsWith("/api/public/sign/")) return "new";
  return url === OPEN_LINK && request.method === "GET" ? "new" : "continuing";
}

/** The answer's body, serialized once: turning a request away must cost next to nothing. */
const BUSY_BODY = JSON.stringify(errorBody("PUBLIC_BUSY"));

/**
 * 503 PUBLIC_BUSY, with Retry-After the request's own turn (whole seconds, rounded up: the pages
 * spread their return over the second after it).
 */
function turnAway(gate: AdmissionGate, reply: FastifyReply): FastifyReply {
  return reply
    .code(503)
    .header("retry-after", String(Math.ceil(gate.comeBackInMs() / 1000)))
    .type("application/json; charset=utf-8")
    .send(BUSY_BODY);
}

/**
 * Admission control for the public routes (decision 040). Under a burst — a thousand patients
 * opening their links at once — this process does at most `maxInFlight` public requests at a time,
 * lets a few more wait briefly, and answers the rest at once with 503 PUBLIC_BUSY and Retry-After:
 * each its own turn on a schedule kept at the pace this process serves (`comeBackInMs`), so they
 * come back spread over the time it takes, instead of together and again and again. A signer's later
 * steps (code, verify, sign) go before newcomers, so those who began finish (decision 044).
 * The signing page then waits and tries again by itself, so the patient sees "aguarde", never an
 * error; the requests admitted finish within seconds instead of all of them waiting minutes in the
 * database pool's queue; and the staff's requests, which are not gated, keep their speed.
 *
 * Two steps:
 * - onRequest, before any other hook of the route: while every place and the queue are taken the
 *   request is turned away there and then — no body read, no session or rate-limit statement;
 * - preValidation, once the body has arrived (a client that sends its body slowly holds no place):
 *   the request takes a place, or waits in the queue for one, or is turned away when the wait runs
 *   out. The public routes count their rate limits at preValidation too, in their own plugins, so
 *   after this hook: a request turned away here counts against no limit. The place is given back
 *   when the answer is ready (onSend) or, at the latest, when the connection closes.
 */
export const publicAdmissionPlugin = fp<{ limits: AdmissionLimits }>(async (app, { limits }) => {
  const gate = createAdmissionGate(limits);
  app.decorate("publicAdmission", gate);

  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (isGated(request) && gate.turnsAway(kindOf(request))) return turnAway(gate, reply);
  });

  app.addHook("preValidation", async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isGated(request)) return;
    const left = new AbortController();
    const onClose = () => left.abort();
    reply.raw.once("close", onClose);
    const release = await gate.enter(left.signal, kindOf(request));
    reply.raw.removeListener("close", onClose);
    if (!release) return turnAway(gate, reply);
    releaseOf.set(request, release);
    reply.raw.once("close", release);
  });

  app.addHook("onSend", async (request, _reply, payload) => {
    releaseOf.get(request)?.();
    return payload;
  });
});

declare module "fastify" {
  interface FastifyInstance {
    /** This process's gate for the public routes (decision 040). */
    publicAdmission: AdmissionGate;
  }
}
