import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, pacientes } from "../../src/db/schema.js";
import { loadFinalDocument, withRegistry } from "../../src/server/services/finalize/final-pdf-input.js";
import { latestMail } from "../helpers/outbox.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { latestSigningCode, signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/** "Corrigir contato e reenviar" from the document's page: POST /api/documents/:id/contact. */
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = (await signableDocument(ctx.app, clinic)).versionId;
});
afterAll(async () => {
  await ctx.close();
});

const call = (who: SignedIn | null, method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });

async function sentDocument() {
  const doc = await signableDocument(ctx.app, clinic, { versionId });
  const sent = await call(clinic, "POST", `/api/documents/${doc.documentId}/send`, { email: true });
  expect(sent.statusCode, sent.body).toBe(200);
  return { ...doc, token: tokenOf(sent.json().link as string) };
}

describe("fixing the patient's contact from the document page", () => {
  it("corrects the e-mail, kills the old link and the pending code, sends a new link, and the registry prints it", async () => {
    const doc = await sentDocument();
    const wrong = doc.patient.email!;
    // The patient (or whoever holds the wrong address) asked for a code on the old link.
    expect((await call(null, "GET", `/api/public/sign/${doc.token}`)).statusCode).toBe(200);
    expect((await call(null, "POST", `/api/public/sign/${doc.token}/code`)).statusCode).toBe(200);
    const oldCode = await latestSigningCode({ app: ctx.app, database: ctx.database }, wrong);

    const right = `corrigido.${doc.patient.cpf}@exemplo.com.br`;
    const fixed = await call(clinic, "POST", `/api/documents/${doc.documentId}/contact`, {
      email: right.toUpperCase(),
      enviar_email: true,
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    const newToken = tokenOf(fixed.json().link as string);
    expect(newToken).not.toBe(doc.token);
    expect(fixed.json().email_enviado).toBe(true);

    // The record has the corrected address (lower-cased), the new link went there.
    const [patient] = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, doc.patient.id));
    expect(patient!.email).toBe(right);
    const mail = await latestMail({ app: ctx.app, database: ctx.database }, right);
    expect(mail?.text).toContain(newToken);

    // The old link is dead; the code sent before the fix does not open the new one.
    const oldPage = await call(null, "GET", `/api/public/sign/${doc.token}`);
    expect(oldPage.statusCode === 200 ? oldPage.json().estado : oldPage.statusCode).not.toBe("pending");
    expect((await call(null, "POST", `/api/public/sign/${doc.token}/code`)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await call(null, "GET", `/api/public/sign/${newToken}`)).statusCode).toBe(200);
    const stale = await call(null, "POST", `/api/public/sign/${newToken}/verify-code`, { codigo: oldCode });
    expect(stale.statusCode).toBe(400);

    // In the trail: the contact change on the document (masked, marked as fixed here) and the resend.
    const events = await ctx.database.db
      .select({ action: auditEvents.action, data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_type, "contrato"), eq(auditEvents.entity_id, doc.documentId)));
    const change = events.find((e) => e.action === "patient.contact_changed");
    expect(change?.data).toMatchObject({
      paciente_id: doc.patient.id,
      corrigido_no_documento: true,
      email: { antes: expect.stringMatching(/\*\*\*@exemplo\.com\.br$/), depois: "co***@exemplo.com.br" },
    });
    expect(JSON.stringify(change?.data)).not.toContain(right);
    expect(events.map((e) => e.action)).toContain("document.resent");
    const detail = (await call(clinic, "GET", `/api/documents/${doc.documentId}`)).json();
    expect(detail.audit.map((e: { label: string }) => e.label)).toContain(
      "Contato do paciente alterado enquanto aguardava assinatura",
    );

    // The patient signs with the new link and a code to the corrected address; the registry says so.
    const signed = await signAsPatient(ctx.app, ctx.database, newToken, { ...doc.patient, email: right });
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const final = await loadFinalDocument(
      { db: ctx.database.db, storage: ctx.app.services.storage },
      clinic.tenantId,
      doc.documentId,
    );
    const input = await withRegistry(final!, "https://consentir.exemplo.com.br", {
      commonName: "Teste",
      fingerprintSha256: "00",
    });
    const notes = input.registry!.contactChanges.map((n) => n.text);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^alterou e-mail de .+ para .+\. Corrigido na página do documento: novo link enviado/);
  });

  it("corrects the mobile (normalised), and refuses malformed contacts with the pt-BR message", async () => {
    const doc = await sentDocument();
    const fixed = await call(clinic, "POST", `/api/documents/${doc.documentId}/contact`, {
      telefone: "(11) 98765-4321",
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json().email_enviado).toBe(false);
    const [patient] = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, doc.patient.id));
    expect(patient!.telefone).toBe("11987654321");
    // The old link no longer works.
    const old = await call(null, "POST", `/api/public/sign/${doc.token}/code`);
    expect(old.statusCode).toBeGreaterThanOrEqual(400);

    const url = `/api/documents/${doc.documentId}/contact`;
    const badPhone = await call(clinic, "POST", url, { telefone: "1234" });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().message).toContain("Celular inválido");
    // A landline cannot receive the code by SMS or WhatsApp.
    const landline = await call(clinic, "POST", url, { telefone: "(11) 3456-7890" });
    expect(landline.statusCode).toBe(400);
    expect(landline.json().message).toContain("Celular inválido");
    const badEmail = await call(clinic, "POST", url, { email: "ana@" });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toContain("E-mail inválido");
    const nothing = await call(clinic, "POST", url, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toContain("Informe o e-mail ou o celular corrigido");
    const same = await call(clinic, "POST", url, { telefone: "11987654321" });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toContain("já são os do cadastro");
    const wrongTypes = await call(clinic, "POST", url, { email: 42, enviar_email: "sim" });
    expect(wrongTypes.statusCode).toBe(400);
    const notJson = await ctx.app.inject({
      method: "POST",
      url,
      payload: "{email:",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
    });
    expect(notJson.statusCode).toBe(400);
    const badId = await call(clinic, "POST", `/api/documents/nao-e-uuid/contact`, { telefone: "11987654321" });
    expect(badId.statusCode).toBe(400);
  });

  it("is 404 for another clinic's document and changes nothing; a draft or signed document is refused", async () => {
    const doc = await sentDocument();
    const before = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, doc.patient.id));
    const foreign = await call(other, "POST", `/api/documents/${doc.documentId}/contact`, {
      email: "intruso@exemplo.com.br",
    });
    expect(foreign.statusCode).toBe(404);
    const after = await ctx.database.db.select().from(pacientes).where(eq(pacientes.id, doc.patient.id));
    expect(after).toEqual(before);
    // The patient's old link still works: nothing happened.
    expect((await call(null, "GET", `/api/public/sign/${doc.token}`)).json().estado).toBe("pending");
    expect(
      (await call(null, "POST", `/api/documents/${doc.documentId}/contact`, { email: "a@b.com" })).statusCode,
    ).toBe(401);

    const draft = await signableDocument(ctx.app, clinic, { versionId });
    const refused = await call(clinic, "POST", `/api/documents/${draft.documentId}/contact`, {
      email: "novo@exemplo.com.br",
    });
    expect(refused.statusCode).toBe(409);
  });
});
