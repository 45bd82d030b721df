/**
 * A minor's guardian has their own e-mail and mobile on the patient record: the guardian's link,
 * code and signed copy go there (never to the minor's contacts), the registry says whose contact
 * it was; a guardian without contacts falls back to the patient's record as before. The sample
 * TCLE prints the guardian's line when there is a guardian, and nothing for an adult.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, emailOutbox } from "../../src/db/schema.js";
import { maskEmail } from "../../src/shared/schemas/signing.js";
import { SAMPLE_TEMPLATE } from "../../src/shared/document-model/sample-template.js";
import { embeddedFiles } from "../../src/server/services/sealing/pdf-embedded-files.js";
import type { Evidence } from "../../src/shared/evidence/evidence.js";
import { validCpf } from "../helpers/factories.js";
import { outboxMails } from "../helpers/outbox.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, latestSigningCode, signatureDataUrl, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
const scratch = mkdtempSync(path.join(os.tmpdir(), "consentir-guardian-"));

const staff = (who: SignedIn, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const pub = (method: "GET" | "POST", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object });

/** A published template of `who` with the guardian's line in its signatures. */
async function template(who: SignedIn, estrutura: unknown, extra: Record<string, unknown> = {}): Promise<string> {
  const specialties = (await staff(who, "GET", "/api/templates/specialties")).json().items as string[];
  const created = await staff(who, "POST", "/api/templates", {
    titulo: "TCLE Responsável",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura,
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(201);
  const published = await staff(who, "POST", `/api/templates/${created.json().id}/status`, { status: "published" });
  expect(published.statusCode, published.body).toBe(200);
  return published.json().versao_atual_id as string;
}

const STRUCTURE = {
  title: "Termo de Consentimento — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo {{medico}} a realizar {{procedimento}}.",
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados: {{riscos}}" },
    {
      id: "s2",
      type: "signature",
      title: "Assinaturas",
      content: "Paciente: {{paciente_nome}}\n\n{{responsavel_linha}}\n\nProfissional: {{profissional_nome}}",
    },
  ],
};

/** Addresses unique to this run: a reused PostgreSQL database keeps earlier runs' outbox. */
const RUN = randomUUID().slice(0, 8);

const MINOR = {
  nome: "Pedro Henrique Souza",
  data_nascimento: "2014-03-09",
  email: `pedro.minor.${RUN}@exemplo.com.br`,
  telefone: "(11) 98765-0001",
  responsavel_nome: "Marta Souza Lima",
  responsavel_email: `Marta.Guardia.${RUN}@Exemplo.com.br`,
  responsavel_telefone: "(11) 91234-5678",
};

async function minorPatient(overrides: Record<string, unknown> = {}) {
  const guardianCpf = validCpf();
  const created = await staff(clinic, "POST", "/api/patients", {
    ...MINOR,
    cpf: validCpf(),
    responsavel_cpf: guardianCpf,
    ...overrides,
  });
  expect(created.statusCode, created.body).toBe(201);
  return { id: created.json().id as string, guardianCpf, body: created.json() };
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await template(clinic, STRUCTURE);
});
afterAll(async () => {
  await ctx.close();
});

describe("the guardian's own contacts on the patient record", () => {
  it("keeps them (e-mail lower-cased, mobile as digits) and shows them back", async () => {
    const { id, body } = await minorPatient();
    expect(body).toMatchObject({
      responsavel_email: `marta.guardia.${RUN}@exemplo.com.br`,
      responsavel_telefone: "11912345678",
    });
    const read = await staff(clinic, "GET", `/api/patients/${id}`);
    expect(read.json()).toMatchObject({
      responsavel_email: `marta.guardia.${RUN}@exemplo.com.br`,
      responsavel_telefone: "11912345678",
    });
  });

  it("refuses a malformed guardian e-mail or a landline as the guardian's mobile, in pt-BR", async () => {
    const bad = await staff(clinic, "POST", "/api/patients", {
      ...MINOR,
      responsavel_email: "marta@",
      responsavel_telefone: "(11) 3456-7890",
    });
    expect(bad.statusCode).toBe(400);
    const messages = JSON.stringify(bad.json());
    expect(messages).toContain("E-mail do responsável inválido");
    expect(messages).toContain("Celular do responsável inválido");
    const { id } = await minorPatient();
    const badUpdate = await staff(clinic, "PUT", `/api/patients/${id}`, { ...MINOR, responsavel_email: 42 });
    expect(badUpdate.statusCode).toBe(400);
  });

  it("does not let another clinic read or change them", async () => {
    const { id } = await minorPatient();
    const read = await staff(other, "GET", `/api/patients/${id}`);
    expect(read.statusCode).toBe(404);
    expect(JSON.stringify(read.json())).not.toContain("marta.guardia");
    const changed = await staff(other, "PUT", `/api/patients/${id}`, {
      ...MINOR,
      responsavel_email: "intruso@exemplo.com.br",
    });
    expect(changed.statusCode).toBe(404);
    const after = await staff(clinic, "GET", `/api/patients/${id}`);
    expect(after.json().responsavel_email).toBe(`marta.guardia.${RUN}@exemplo.com.br`);
  });
});

describe("the guardian signs with their own contacts", () => {
  it("sends the link and the code to the guardian's e-mail only, names it in the registry and prints the guardian's line", async () => {
    const { id, guardianCpf } = await minorPatient();
    const documentId = await draftDocument(ctx.app, clinic, versionId, id);
    const sent = await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true });
    expect(sent.statusCode, sent.body).toBe(200);
    const token = tokenOf(sent.json().link);

    const guardianMail = `marta.guardia.${RUN}@exemplo.com.br`;
    const toGuardian = await outboxMails(ctx, guardianMail);
    expect(toGuardian.map((m) => m.subject)).toEqual([expect.stringContaining("documento para assinatura")]);
    expect(toGuardian[0]!.text).toContain("Olá, Marta!");
    expect(toGuardian[0]!.text).toContain(token);

    const page = (await pub("GET", `/api/public/sign/${token}`)).json();
    expect(page.signatario).toMatchObject({ papel: "responsavel" });
    expect(page.codigo_email).toBe(maskEmail(guardianMail));

    const asked = await pub("POST", `/api/public/sign/${token}/code`, { canal: "email" });
    expect(asked.statusCode, asked.body).toBe(200);
    const codigo = await latestSigningCode(ctx, guardianMail);
    // The minor's contacts got nothing: no link, no code.
    expect(await outboxMails(ctx, MINOR.email)).toEqual([]);
    const [otpEvent] = await ctx.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.otp_email_outbox")));
    expect(otpEvent?.data).toMatchObject({ canal: "email", contato_de: "responsavel" });
    expect(JSON.stringify(otpEvent?.data)).not.toContain("pedro");
    // The staff's document page says where the guardian's link and code went (decision 078).
    const detail = await staff(clinic, "GET", `/api/documents/${documentId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    const labels = (detail.json().audit as { label: string }[]).map((e) => e.label);
    expect(labels).toContain(
      `E-mail com o link ao responsável legal na caixa de saída (${maskEmail(guardianMail)}) (envio de e-mail não configurado)`,
    );
    expect(labels).toContain(
      `Código de verificação ao responsável legal na caixa de saída (${maskEmail(guardianMail)}) (envio de e-mail não configurado)`,
    );

    const verified = await pub("POST", `/api/public/sign/${token}/verify-code`, { codigo });
    expect(verified.statusCode, verified.body).toBe(200);
    const signed = await pub("POST", `/api/public/sign/${token}`, {
      nome: MINOR.responsavel_nome,
      cpf: guardianCpf,
      email: guardianMail,
      assinatura: signatureDataUrl(),
      conteudo_sha256: verified.json().documento.conteudo_sha256,
      aceite_eletronico: true,
      codigo,
    });
    expect(signed.statusCode, signed.body).toBe(200);

    await ctx.app.worker.tick();
    const download = await staff(clinic, "GET", `/api/documents/${documentId}/signed-pdf`);
    expect(download.statusCode, download.body).toBe(200);
    const evidence = JSON.parse(
      embeddedFiles(download.rawPayload)
        .find((f) => f.name === "evidencias.json")!
        .bytes.toString("utf8"),
    ) as Evidence;
    const guardian = evidence.partes.find((p) => p.papel === "responsavel")!;
    expect(guardian).toMatchObject({ codigo_contato_de: "responsavel", otp_verificado: true });
    expect(guardian.contato_desde).toMatchObject({ como: "cadastro" });

    const file = path.join(scratch, "responsavel.pdf");
    writeFileSync(file, download.rawPayload);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
    expect(text).toContain("Esse e-mail do responsável legal está no cadastro do paciente desde");
    const cpf = guardianCpf.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, "$1.$2.$3-$4");
    expect(text).toContain(`Responsável legal: Marta Souza Lima - CPF ${cpf}`);

    // The signed copy: to the guardian, never to the minor.
    const copies = await outboxMails(ctx, null, eq(emailOutbox.subject, "Documento assinado: TCLE - Blefaroplastia"));
    const addresses = copies.map((m) => m.to_address);
    expect(addresses).toContain(guardianMail);
    expect(addresses).not.toContain(MINOR.email);
  });

  it("falls back to the patient's record when the guardian has no contact, and says so as before", async () => {
    const { id } = await minorPatient({
      email: `familia.fallback.${RUN}@exemplo.com.br`,
      responsavel_email: "",
      responsavel_telefone: "",
    });
    const documentId = await draftDocument(ctx.app, clinic, versionId, id);
    const sent = await staff(clinic, "POST", `/api/documents/${documentId}/send`, { email: true });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await outboxMails(ctx, `familia.fallback.${RUN}@exemplo.com.br`)).length).toBe(1);
    const token = tokenOf(sent.json().link);
    expect((await pub("POST", `/api/public/sign/${token}/code`, {})).statusCode).toBe(200);
    const [otpEvent] = await ctx.database.db
      .select({ data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, documentId), eq(auditEvents.action, "document.otp_email_outbox")));
    expect(otpEvent?.data).toMatchObject({ canal: "email" });
    expect(otpEvent?.data).not.toHaveProperty("contato_de");
  });
});

describe("the sample TCLE and the guardian's line", () => {
  it("has no guardian line and no unresolved placeholder in an adult's document; the minor's names the guardian", async () => {
    const sample = await template(clinic, SAMPLE_TEMPLATE.estrutura);
    const adult = await staff(clinic, "POST", "/api/patients", {
      nome: "Rita Campos Leal",
      cpf: validCpf(),
      data_nascimento: "1975-07-07",
      email: "rita@exemplo.com.br",
      telefone: "(11) 98888-7777",
    });
    const create = (pacienteId: string) =>
      staff(clinic, "POST", "/api/documents", {
        paciente_id: pacienteId,
        template_version_id: sample,
        titulo: "TCLE",
        procedimento: "Blefaroplastia superior",
        data_procedimento: "2026-12-10",
        medico_responsavel_id: clinic.profileId,
        variaveis: {
          riscos_personalizados: "Hematoma",
          beneficios_personalizados: "Melhora",
          cuidados_personalizados: "Repouso",
          valor_procedimento: "R$ 1.000,00",
        },
      });
    const forAdult = await create(adult.json().id);
    expect(forAdult.statusCode, forAdult.body).toBe(201);
    const adultDoc = (await staff(clinic, "GET", `/api/documents/${forAdult.json().id}`)).json();
    const adultText = JSON.stringify(adultDoc.documento);
    expect(adultText).not.toContain("Responsável legal");
    expect(adultText).not.toContain("{{");
    expect(adultText).not.toContain("____");
    expect(adultDoc.documento.unresolved ?? []).toEqual([]);

    const { id, guardianCpf } = await minorPatient();
    const forMinor = await create(id);
    expect(forMinor.statusCode, forMinor.body).toBe(201);
    const minorText = JSON.stringify(
      (await staff(clinic, "GET", `/api/documents/${forMinor.json().id}`)).json().documento,
    );
    const cpf = guardianCpf.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, "$1.$2.$3-$4");
    expect(minorText).toContain(`Responsável legal: Marta Souza Lima - CPF ${cpf}`);
  });
});
