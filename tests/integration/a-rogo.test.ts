/**
 * Signature "a rogo" (decision 070): staff name, on the draft, the person who signs at the request
 * of a patient who cannot read or sign; the document then needs two witnesses to be sent, its link
 * goes to nobody and signs only on the staff's device handed over at the front desk, with the
 * reading aloud declared; the sealed PDF prints the capacity and the reading.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { contratoPartes, emailOutbox } from "../../src/db/schema.js";
import { ERRORS } from "../../src/shared/errors.js";
import { SIGNING_MESSAGES } from "../../src/shared/signing-rules.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { validCpf } from "../helpers/factories.js";
import { outboxMails } from "../helpers/outbox.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import {
  publishedTemplateVersion,
  type SignablePatient,
  signableDocument,
  signAsPatient,
  tokenOf,
} from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-a-rogo-"));

type Method = "GET" | "POST" | "PUT" | "DELETE";
const staff = (who: SignedIn | { cookie: string }, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const publicCall = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object });
const expectError = (response: { statusCode: number; json(): any; body: string }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json()).toMatchObject({ code, ...(code === "VALIDATION" ? {} : { message: ERRORS[code].message }) });
};
const formatted = (cpf: string) => `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

let counter = 0;
function person(nome: string) {
  counter += 1;
  const cpf = validCpf();
  return { nome, cpf, email: `pessoa.${counter}.${cpf}@exemplo.com.br` };
}
const eventsOf = (id: string, action: string) =>
  rawRows<{ data: Record<string, unknown> }>(
    ctx.database.db,
    sql`select data from audit_events where entity_id = ${id} and action = ${action} order by seq`,
  );

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe("PUT/DELETE /api/documents/:id/a-rogo", () => {
  it("names who signs a rogo on the draft: validated, a third person, another clinic's id not found, audited masked", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const url = `/api/documents/${documentId}/a-rogo`;
    const rogado = person("Joaquim Pereira Rogado");
    for (const bad of [
      {},
      "texto",
      [],
      { nome: "Jo", cpf: rogado.cpf, motivo: "nao_sabe_ler" },
      { nome: rogado.nome, cpf: "111.111.111-11", motivo: "nao_sabe_ler" },
      { nome: rogado.nome, cpf: rogado.cpf, motivo: "preguica" },
      { nome: "\u0000".repeat(40), cpf: rogado.cpf, motivo: "nao_sabe_ler" },
      { nome: "x".repeat(5000), cpf: rogado.cpf, motivo: "nao_sabe_ler" },
    ]) {
      const response = await staff(clinic, "PUT", url, bad);
      expect(response.statusCode, JSON.stringify(bad)).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
    }
    const missingMotivo = await staff(clinic, "PUT", url, { nome: rogado.nome, cpf: rogado.cpf });
    expect(missingMotivo.json().issues).toEqual([{ path: "motivo", message: "Escolha por que o paciente não assina" }]);
    expectError(
      await staff(clinic, "PUT", url, { nome: patient.nome, cpf: patient.cpf, motivo: "nao_sabe_ler" }),
      "A_ROGO_IS_PARTY",
    );
    const body = { nome: rogado.nome, cpf: formatted(rogado.cpf), motivo: "nao_sabe_ler" };
    expect((await staff(other, "PUT", url, body)).statusCode).toBe(404);
    expect((await staff(other, "DELETE", url)).statusCode).toBe(404);
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    expectError(await staff(auditor, "PUT", url, body), "FORBIDDEN");
    expect((await staff(clinic, "PUT", "/api/documents/nao-e-um-id/a-rogo", body)).statusCode).toBe(400);

    const saved = await staff(clinic, "PUT", url, body);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ nome: rogado.nome, cpf: rogado.cpf, motivo: "nao_sabe_ler" });
    expect((await staff(clinic, "GET", `/api/documents/${documentId}`)).json().a_rogo).toEqual(saved.json());
    expect((await staff(other, "GET", `/api/documents/${documentId}`)).statusCode).toBe(404);
    const [event] = await eventsOf(documentId, "document.a_rogo_set");
    expect(event!.data).toEqual({
      nome: rogado.nome,
      cpf: `***.${rogado.cpf.slice(3, 6)}.${rogado.cpf.slice(6, 9)}-**`,
      motivo: "nao_sabe_ler",
    });

    // The person who signs a rogo cannot also be a witness.
    expectError(
      await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, {
        nome: "Outro Nome Qualquer",
        cpf: rogado.cpf,
        email: rogado.email,
      }),
      "WITNESS_IS_PARTY",
    );
    // Sending needs the two witnesses; the send check says so first.
    const check = await staff(clinic, "GET", `/api/documents/${documentId}/send-check`);
    expect(check.json()).toMatchObject({ a_rogo: true, email_possivel: false });
    expect(check.json().problemas).toEqual(
      expect.arrayContaining([
        { codigo: "A_ROGO_WITNESSES_MISSING", mensagem: ERRORS.A_ROGO_WITNESSES_MISSING.message, bloqueia: true },
      ]),
    );
    expectError(await staff(clinic, "POST", `/api/documents/${documentId}/send`, {}), "A_ROGO_WITNESSES_MISSING");
    expect((await staff(clinic, "GET", `/api/documents/${documentId}`)).json().status).toBe("draft");

    // Removed on the draft: the patient signs as any other.
    expect((await staff(clinic, "DELETE", url)).statusCode).toBe(204);
    expect((await staff(clinic, "GET", `/api/documents/${documentId}`)).json().a_rogo).toBeNull();
    expect(await eventsOf(documentId, "document.a_rogo_removed")).toHaveLength(1);
    expect((await staff(clinic, "POST", `/api/documents/${documentId}/send`, {})).statusCode).toBe(200);
    expectError(await staff(clinic, "PUT", url, body), "A_ROGO_NOT_EDITABLE");
    expectError(await staff(clinic, "DELETE", url), "A_ROGO_NOT_EDITABLE");
  });
});

describe("signing a rogo at the front desk", () => {
  it("off the front desk it is refused; on the handed-over device, with the reading declared, it signs; the sealed PDF says so", async () => {
    const { documentId, patient } = await signableDocument(ctx.app, clinic, { versionId });
    const rogado = person("Joana Darc Confiança");
    expect(
      (
        await staff(clinic, "PUT", `/api/documents/${documentId}/a-rogo`, {
          nome: rogado.nome,
          cpf: rogado.cpf,
          motivo: "nao_sabe_ler",
        })
      ).statusCode,
    ).toBe(200);
    const witnesses = [person("Ana Lúcia Testemunha"), person("Bruno Alves Testemunha")];
    for (const w of witnesses)
      expect((await staff(clinic, "POST", `/api/documents/${documentId}/witnesses`, w)).statusCode).toBe(201);

    // "Enviar também por e-mail": the witnesses get theirs; nothing goes to the patient.
    const sent = await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().email_enviado).not.toBe(true);
    expect(await outboxMails(ctx, patient.email!, like(emailOutbox.subject, "%assinar%"))).toEqual([]);
    const witnessLinks = sent.json().testemunhas as { link: string; email_enviado: boolean }[];
    expect(witnessLinks.map((l) => l.email_enviado)).toEqual([true, true]);
    const token = tokenOf(sent.json().link);

    const page = (await publicCall("GET", `/api/public/sign/${token}`)).json();
    expect(page.signatario).toEqual({
      papel: "paciente",
      qualidade: `a rogo de ${patient.nome}`,
      paciente_nome: patient.nome,
      a_rogo: { a_pedido_de: patient.nome, motivo: "nao_sabe_ler" },
    });
    const asRogado: SignablePatient = { ...patient, nome: rogado.nome, cpf: rogado.cpf };
    const reading = { a_rogo: { lido_por: "Carla Recepção Souza", leitura_confirmada: true } };

    // From the link alone (no locked staff session): refused before any identity check.
    const remote = await signAsPatient(ctx.app, ctx.database, token, asRogado, reading);
    expectError(remote.response, "A_ROGO_FRONT_DESK_ONLY");
    // Nor refused through the link: the clinic records a refusal in person.
    expectError(
      await publicCall("POST", `/api/public/sign/${token}/refuse`, {
        nome: rogado.nome,
        cpf: rogado.cpf,
        conteudo_sha256: page.documento.conteudo_sha256,
      }),
      "A_ROGO_CHOICE_AT_CLINIC",
    );

    const handed = await staff(clinic, "POST", `/api/documents/${documentId}/front-desk`, {});
    expect(handed.statusCode, handed.body).toBe(200);
    const atDesk = { headers: { cookie: clinic.cookie } };
    // The patient's own name does not sign: the named person does.
    const asPatient = await signAsPatient(ctx.app, ctx.database, token, patient, reading, atDesk);
    expect(asPatient.response.statusCode).toBe(400);
    expect(asPatient.response.json()).toMatchObject({
      code: "SIGNING_NAME_MISMATCH",
      message: SIGNING_MESSAGES.aRogoNameMismatch,
    });
    // Without the reading declared, or with a malformed one: 400, nothing signed.
    const unread = await signAsPatient(ctx.app, ctx.database, token, asRogado, {}, atDesk);
    expectError(unread.response, "A_ROGO_READING_REQUIRED");
    const half = await signAsPatient(
      ctx.app,
      ctx.database,
      token,
      asRogado,
      { a_rogo: { lido_por: "Carla", leitura_confirmada: false } },
      atDesk,
    );
    expect(half.response.statusCode).toBe(400);
    expect(
      await ctx.database.db
        .select()
        .from(contratoPartes)
        .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "paciente"))),
    ).toEqual([]);

    const signed = await signAsPatient(ctx.app, ctx.database, token, asRogado, reading, atDesk);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [party] = await ctx.database.db
      .select()
      .from(contratoPartes)
      .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "paciente")));
    expect(party).toMatchObject({ nome: rogado.nome, cpf: rogado.cpf, qualidade: `a rogo de ${patient.nome}` });
    const event = (await eventsOf(documentId, "document.party_signed")).find((e) => e.data.papel === "paciente");
    expect(event!.data).toMatchObject({
      presencial: { atendente_id: clinic.profileId },
      a_rogo: {
        a_pedido_de: patient.nome,
        motivo: "nao_sabe_ler",
        leitura_em_voz_alta: { lido_por: "Carla Recepção Souza", declarada: true },
      },
    });
    expect((await staff(clinic, "POST", "/api/auth/unlock", { senha_atual: clinic.password })).statusCode).toBe(200);

    // The two witnesses sign by their own links; then the document is signed and sealed.
    expect((await staff(clinic, "GET", `/api/documents/${documentId}`)).json().status).not.toBe("signed");
    for (const [index, w] of witnesses.entries()) {
      const done = await signAsPatient(ctx.app, ctx.database, tokenOf(witnessLinks[index]!.link), { id: "", ...w });
      expect(done.response.statusCode, done.response.body).toBe(200);
    }
    expect((await staff(clinic, "GET", `/api/documents/${documentId}`)).json().status).toBe("signed");
    await ctx.app.worker.tick();
    const pdf = await staff(clinic, "GET", `/api/documents/${documentId}/signed-pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    const file = path.join(scratch, "a-rogo.pdf");
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain(`a rogo de ${patient.nome}`);
    expect(text).toContain(`Assinatura a rogo: assinou a pedido de ${patient.nome}, que não sabe ler`);
    expect(text).toContain(`Leitura em voz alta: o termo foi lido para ${patient.nome} por Carla Recepção Souza`);
    expect(text).toContain("Assinatura presencial, no aparelho de");
    // The offline verifier reads the same from the embedded evidence.
    const report = verifySignedPdf(pdf.rawPayload);
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(report.partes.find((p) => p.nome === rogado.nome)?.descricao).toContain(
      `assinatura a rogo de ${patient.nome}, que não sabe ler; termo lido em voz alta por Carla Recepção Souza`,
    );

    // Signed a rogo: the link offers no revocation; the clinic records it.
    const after = (await publicCall("GET", `/api/public/sign/${token}`)).json();
    expect(after.revogacao).toBeUndefined();
  });
});
