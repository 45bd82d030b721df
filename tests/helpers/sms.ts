import type { FastifyInstance } from "fastify";
import { startFakeZenvia, type FakeZenviaServer } from "../fakes/zenvia-server.js";
import { newClinic, type SignedIn } from "./sessions.js";
import { draftDocument, publishedTemplateVersion, type SignablePatient, signingPatient } from "./signing.js";
import { createTestApp, type TestContext } from "./test-app.js";

/** A production app without SMTP whose SMS go to the fake Zenvia (decision 066): e-mail carries no code, SMS can. */
export function smsTestApp(zenvia: FakeZenviaServer): Promise<TestContext> {
  return createTestApp({
    env: {
      NODE_ENV: "production",
      PUBLIC_URL: "https://consentir.exemplo.com.br",
      TSA_URL: "none",
      SMS_PROVIDER_URL: zenvia.url,
      SMS_API_TOKEN: "token-de-teste",
      SMS_FROM: "clinica",
    },
  });
}

/**
 * A patient without e-mail ("Carla Mendes Rocha", born 1980, unless `fields` say otherwise: a
 * mobile, a guardian…) and a draft document for them, signed by the professional, ready to send.
 */
export async function draftForSmsPatient(
  app: FastifyInstance,
  who: SignedIn,
  versionId: string,
  fields: Record<string, unknown>,
): Promise<{ documentId: string; patient: SignablePatient }> {
  const { nome = "Carla Mendes Rocha", ...rest } = fields;
  const patient = await signingPatient(app, who, {
    nome: String(nome),
    email: null,
    fields: { data_nascimento: "1980-02-02", ...rest },
  });
  return { documentId: await draftDocument(app, who, versionId, patient.id), patient };
}

/**
 * The SMS tests' world: an app whose SMS go to the fake Zenvia (`make`, by default the production
 * one above), a server without SMS, two clinics on the first (the second for cross-clinic ids), one
 * on the bare server, and a published template of the first clinic.
 */
export async function smsWorld(make: (zenvia: FakeZenviaServer) => Promise<TestContext> = smsTestApp) {
  const zenvia = await startFakeZenvia();
  const ctx = await make(zenvia);
  const bare = await createTestApp();
  const clinic = await newClinic(ctx.app);
  const other = await newClinic(ctx.app);
  const bareClinic = await newClinic(bare.app);
  const versionId = await publishedTemplateVersion(ctx.app, clinic);
  return {
    zenvia,
    ctx,
    bare,
    clinic,
    other,
    bareClinic,
    versionId,
    async close() {
      await ctx.close();
      await bare.close();
      await zenvia.close();
    },
  };
}

/** A request as `who` on `app`. */
export const as = (app: TestContext, who: SignedIn) => (method: "GET" | "POST", url: string, payload?: unknown) =>
  app.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
