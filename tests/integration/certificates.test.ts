import { constants, createVerify, sign, X509Certificate } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRows } from "../../src/db/raw.js";
import { certificados, emailOutbox, profiles, tenants } from "../../src/db/schema.js";
import { warnCertificateExpiry } from "../../src/server/jobs/warn-certificate-expiry.js";
import {
  activeClinicCertificate,
  activeProfessionalCertificate,
} from "../../src/server/services/certificates/load-signing-certificate.js";
import { NOT_ICP_CLINIC } from "../../src/server/services/certificates/upload-certificate.js";
import { issueCertificate, issueEndEntity, testPki, toPfx } from "../fixtures/icp-brasil.js";
import { docxRenamed } from "../fixtures/icp-brasil-variants.js";
import { outboxMails } from "../helpers/outbox.js";
import { newStaff, type SignedIn } from "../helpers/sessions.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";
import { newEstablishment } from "./users-helpers.js";

/**
 * first half (decision 019): uploading the clinic's e-CNPJ and a professional's e-CPF,
 * the list, soft removal, who may do what, every refusal of the intake, the wrong-password lock,
 * the expiry warnings, and the unlocked certificate the signer gets.
 */
const pki = testPki();
const DAY = 86_400_000;
let ctx: TestContext;
let owner: SignedIn;
/** Every answer of this file: none may carry the file or its password. */
const answers: string[] = [];

beforeAll(async () => {
  ctx = await createTestApp();
  owner = await newEstablishment(ctx.app);
  await ctx.database.db.update(tenants).set({ cnpj: pki.cnpj }).where(eq(tenants.id, owner.tenantId));
}, 60_000);
afterAll(async () => {
  const secrets = [
    pki.ecpf.password,
    pki.ecnpj.password,
    pki.ecpf.pfx.toString("base64").slice(0, 200),
    pki.ecnpj.pfx.toString("base64").slice(0, 200),
  ];
  for (const body of answers)
    for (const secret of secrets)
      expect(body.includes(secret), "an answer carried the file or its password").toBe(false);
  await ctx?.close();
});

async function call(
  who: SignedIn,
  method: "GET" | "POST" | "DELETE",
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  const response = await ctx.app.inject({
    method,
    url,
    headers: { cookie: who.cookie },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  answers.push(response.body);
  return response;
}

function body(
  file: Buffer,
  password: string,
  titular: "clinica" | "profissional",
  extra: Record<string, unknown> = {},
) {
  return {
    arquivo_base64: file.toString("base64"),
    nome_arquivo: "certificado.pfx",
    alias: "Certificado da clínica",
    senha: password,
    titular,
    ...extra,
  };
}
const upload = (who: SignedIn, payload: unknown) => call(who, "POST", "/api/certificates", payload);

/** A professional of the clinic whose CPF is the test e-CPF's (or another). */
async function professional(
  tenantId: string,
  cpf = pki.cpf,
  role: "profissional" | "pro_saude" = "profissional",
): Promise<SignedIn> {
  const staff = await newStaff(ctx.app, ctx.database, tenantId, role);
  await ctx.database.db.update(profiles).set({ cpf }).where(eq(profiles.id, staff.profileId));
  return staff;
}

async function rowsOf(tenantId: string) {
  return ctx.database.db.select().from(certificados).where(eq(certificados.tenant_id, tenantId));
}

async function auditOf(tenantId: string, action: string) {
  return rawRows<{ entity_id: string | null; actor_profile_id: string | null; data: Record<string, unknown> }>(
    ctx.database.db,
    sql`select entity_id, actor_profile_id, data from audit_events where tenant_id = ${tenantId} and action = ${action} order by seq`,
  );
}

describe("POST /api/certificates: the clinic's e-CNPJ and a professional's e-CPF", () => {
  it("keeps a certificate that is not ICP-Brasil but says it will not seal, and the PDF is sealed by the instance", async () => {
    const privateRoot = issueCertificate({
      subject: [
        { shortName: "C", value: "BR" },
        { shortName: "O", value: "Autoridade Particular" },
        { shortName: "CN", value: "Raiz Particular de Teste" },
      ],
      ca: true,
    });
    const own = issueEndEntity(
      { root: privateRoot, ac: privateRoot },
      { name: "CLINICA TESTE LTDA", kind: "PJ", cpf: pki.cpf, cnpj: pki.cnpj },
    );
    const clinic = await newEstablishment(ctx.app);
    const response = await upload(clinic, body(own.pfx, own.password, "clinica"));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().certificado.icp_brasil).toBe(false);
    expect(response.json().avisos).toContain(NOT_ICP_CLINIC);
    expect(response.json().avisos.join(" ")).not.toContain("qualificadas");
    // What the warning says is what sealing does: only an ICP-Brasil certificate is taken.
    const active = await activeClinicCertificate(
      ctx.database.db,
      ctx.app.services.secretBox,
      clinic.tenantId,
      new Date(),
    );
    expect(active).toMatchObject({ icpBrasil: false });
  });

  it("stores the clinic's e-CNPJ encrypted, linked to the clinic by its CNPJ, and lists it without file or password", async () => {
    const response = await upload(
      owner,
      body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica", { descricao: "e-CNPJ da recepção" }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const { certificado, avisos, substituido_id } = response.json();
    expect(avisos).toEqual([]);
    expect(substituido_id).toBeNull();
    expect(certificado).toMatchObject({
      alias: "Certificado da clínica",
      descricao: "e-CNPJ da recepção",
      tipo: "A1",
      provider: "local",
      titular: "clinica",
      nome_arquivo: "certificado.pfx",
      cn: `CLINICA TESTE LTDA:${pki.cnpj}`,
      issuer_cn: "AC Teste Consentir v1",
      holder_kind: "e-CNPJ",
      cnpj: pki.cnpj,
      cpf_mascarado: "***.982.247-**",
      responsible_name: "MARIA DA SILVA TESTE",
      vinculado_clinica: true,
      icp_brasil: true,
      // This app was given no official roots: the chain is not said to be checked (decision 047).
      raiz: { conferencia: "nao_conferida", nome: null },
      is_active: true,
      enviado_por: "Dr. Ricardo Almeida Souza",
    });
    expect(Object.keys(certificado)).not.toEqual(
      expect.arrayContaining(["senha", "secret_encrypted", "arquivo_base64"]),
    );

    const [row] = await rowsOf(owner.tenantId);
    expect(row!.secret_encrypted.includes(pki.ecnpj.pfx.subarray(0, 64))).toBe(false);
    expect(row!.secret_encrypted.toString("latin1")).not.toContain(pki.ecnpj.password);
    const opened = JSON.parse(ctx.app.services.secretBox.open(row!.secret_encrypted).toString("utf8"));
    expect(Buffer.from(opened.pfx_base64, "base64").equals(pki.ecnpj.pfx)).toBe(true);
    expect(opened.password).toBe(pki.ecnpj.password);

    const list = await call(owner, "GET", "/api/certificates");
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((c: { id: string }) => c.id)).toEqual([certificado.id]);
    expect((await auditOf(owner.tenantId, "certificate.uploaded")).map((e) => e.entity_id)).toContain(certificado.id);
  });

  it("warns (and stores) an e-CNPJ whose CNPJ is not the clinic's", async () => {
    const clinic = await newEstablishment(ctx.app);
    const response = await upload(clinic, body(pki.ecnpj.pfx3des, pki.ecnpj.password, "clinica"));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().certificado.vinculado_clinica).toBe(false);
    expect(response.json().avisos).toEqual([
      expect.stringMatching(/^O CNPJ deste certificado \(11\.222\.333\/0001-81\) não é o CNPJ cadastrado da clínica/),
    ]);
  });

  it("takes a professional's own e-CPF (legacy 3DES file), linked to them; refuses one with another CPF", async () => {
    const clinic = await newEstablishment(ctx.app);
    const maria = await professional(clinic.tenantId);
    const response = await upload(
      maria,
      body(pki.ecpf.pfx3des, pki.ecpf.password, "profissional", { alias: "Meu e-CPF" }),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().certificado).toMatchObject({
      titular: "profissional",
      profissional: { id: maria.profileId },
      perfil_vinculado: { id: maria.profileId },
      holder_kind: "e-CPF",
      cpf_mascarado: "***.982.247-**",
    });
    expect(response.json().avisos).toEqual([]);

    const other = await professional(clinic.tenantId, "39053344705");
    const refused = await upload(other, body(pki.ecpf.pfx, pki.ecpf.password, "profissional"));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: "CERTIFICATE_NOT_YOURS",
      message: expect.stringMatching(/^O CPF deste certificado não é o do seu cadastro/),
    });
    const ecnpjAsOwn = await upload(maria, body(pki.ecnpj.pfx, pki.ecnpj.password, "profissional"));
    expect(ecnpjAsOwn.statusCode).toBe(400);
    expect(ecnpjAsOwn.json().message).toMatch(/^Como certificado pessoal, envie o seu e-CPF/);
    expect((await auditOf(clinic.tenantId, "certificate.upload_refused")).map((e) => e.data.motivo)).toEqual([
      "cpf_mismatch",
      "not_an_ecpf",
    ]);

    // A professional sees only their own; the owner sees the clinic's.
    expect((await call(other, "GET", "/api/certificates")).json().items).toEqual([]);
    expect((await call(maria, "GET", "/api/certificates")).json().items).toHaveLength(1);
    expect((await call(clinic, "GET", "/api/certificates")).json().items).toHaveLength(1);
  });

  it("links an e-CPF sent as the clinic's certificate to the user with that CPF, with a warning", async () => {
    const clinic = await newEstablishment(ctx.app);
    const maria = await professional(clinic.tenantId);
    const response = await upload(clinic, body(pki.ecpf.pfx, pki.ecpf.password, "clinica"));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().certificado.perfil_vinculado).toEqual({ id: maria.profileId, nome: "Equipe profissional" });
    expect(response.json().avisos[0]).toMatch(/^Este é um e-CPF \(pessoa física\)/);
  });

  it("replaces the active certificate of the same holder, and refuses the same one twice", async () => {
    const clinic = await newEstablishment(ctx.app);
    const first = (await upload(clinic, body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"))).json().certificado;
    const again = await upload(clinic, body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: "CERTIFICATE_DUPLICATE",
      message: "Este certificado já está cadastrado e ativo.",
    });
    const renewed = issueEndEntity(pki, { name: "CLINICA TESTE LTDA", kind: "PJ", cpf: pki.cpf, cnpj: pki.cnpj });
    const second = await upload(clinic, body(renewed.pfx, renewed.password, "clinica", { alias: "e-CNPJ renovado" }));
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().substituido_id).toBe(first.id);
    const items = (await call(clinic, "GET", "/api/certificates")).json().items as {
      alias: string;
      is_active: boolean;
    }[];
    expect(items.map((c) => [c.alias, c.is_active])).toEqual([
      ["e-CNPJ renovado", true],
      ["Certificado da clínica", false],
    ]);
    expect(await auditOf(clinic.tenantId, "certificate.replaced")).toHaveLength(1);
  });
});

describe("what the intake refuses: nothing stored, a pt-BR reason", () => {
  it("refuses a .docx renamed .pfx, a PFX without key, an expired and a not-yet-valid certificate, one that cannot sign", async () => {
    const clinic = await newEstablishment(ctx.app);
    const expired = issueEndEntity(pki, {
      name: "VENCIDA LTDA",
      kind: "PJ",
      cpf: pki.cpf,
      cnpj: pki.cnpj,
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const future = issueEndEntity(pki, {
      name: "FUTURA LTDA",
      kind: "PJ",
      cpf: pki.cpf,
      cnpj: pki.cnpj,
      notBefore: new Date(Date.now() + 5 * DAY),
    });
    const encryptOnly = issueEndEntity(pki, {
      name: "CIFRA LTDA",
      kind: "PJ",
      cpf: pki.cpf,
      cnpj: pki.cnpj,
      keyUsage: { keyEncipherment: true },
    });
    const cases: [Buffer, string, string, RegExp][] = [
      [docxRenamed(), "qualquer", "not_pkcs12", /^O arquivo não é um certificado digital PKCS#12/],
      [toPfx(null, pki.ecnpj.chain, "s3nha"), "s3nha", "no_private_key", /^O arquivo não contém a chave privada/],
      [expired.pfx, expired.password, "expired", /^O certificado venceu em \d{2}\/\d{2}\/\d{4}/],
      [future.pfx, future.password, "not_yet_valid", /^O certificado ainda não é válido/],
      [encryptOnly.pfx, encryptOnly.password, "no_signing_usage", /não serve para assinar documentos/],
    ];
    for (const [file, password, motivo, message] of cases) {
      const response = await upload(clinic, body(file, password, "clinica"));
      expect(response.statusCode, motivo).toBe(400);
      expect(response.json(), motivo).toMatchObject({
        code: "CERTIFICATE_INVALID",
        message: expect.stringMatching(message),
        details: { motivo },
      });
      expect(response.json().issues[0].path).toBe("arquivo_base64");
    }
    expect(await rowsOf(clinic.tenantId)).toEqual([]);
    expect((await auditOf(clinic.tenantId, "certificate.upload_refused")).map((e) => e.data.motivo)).toEqual(
      cases.map((c) => c[2]),
    );
  });

  it("validates the body in Portuguese: missing fields, file type, base64, size", async () => {
    const clinic = await newEstablishment(ctx.app);
    const missing = await upload(clinic, { titular: "clinica" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues.map((i: { path: string; message: string }) => `${i.path}: ${i.message}`)).toEqual([
      "arquivo_base64: Selecione o arquivo do certificado (.p12 ou .pfx)",
      "nome_arquivo: Selecione o arquivo do certificado (.p12 ou .pfx)",
      "alias: Informe um nome para o certificado",
      "senha: Informe a senha do certificado",
    ]);
    const docx = await upload(
      clinic,
      body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica", { nome_arquivo: "contrato.docx" }),
    );
    expect(docx.json().issues).toEqual([
      { path: "nome_arquivo", message: "Apenas arquivos .p12 ou .pfx são aceitos." },
    ]);
    const notBase64 = await upload(
      clinic,
      body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica", { arquivo_base64: "não é base64!" }),
    );
    expect(notBase64.statusCode).toBe(400);
    const big = await upload(clinic, body(Buffer.alloc(70 * 1024, 1), "x", "clinica"));
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toBe("O arquivo é grande demais para um certificado A1 (máximo de 64 kB).");
    const huge = await ctx.app.inject({
      method: "POST",
      url: "/api/certificates",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: JSON.stringify(body(Buffer.alloc(15 * 1024 * 1024, 7), "x", "clinica")),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "O conteúdo enviado é grande demais." });
    const malformed = await ctx.app.inject({
      method: "POST",
      url: "/api/certificates",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
      payload: '{"alias": "x"',
    });
    expect(malformed.statusCode).toBe(400);
    expect(await rowsOf(clinic.tenantId)).toEqual([]);
  });

  it("locks a user out after 5 wrong passwords in 15 minutes (429 with Retry-After), the right one included", async () => {
    const clinic = await newEstablishment(ctx.app);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await upload(clinic, body(pki.ecnpj.pfx, `senha-errada-${i}`, "clinica"));
      statuses.push(response.statusCode);
      if (i === 0)
        expect(response.json()).toMatchObject({
          code: "CERTIFICATE_WRONG_PASSWORD",
          message: "Senha do certificado incorreta.",
          issues: [{ path: "senha" }],
        });
      if (i === 5) {
        expect(response.json()).toMatchObject({
          code: "CERTIFICATE_PASSWORD_LOCKED",
          message: expect.stringMatching(/^Muitas tentativas com senha incorreta\. Por segurança, aguarde 15 minutos/),
        });
        expect(Number(response.headers["retry-after"])).toBeGreaterThan(800);
      }
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
    expect((await upload(clinic, body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"))).statusCode).toBe(429);
    expect(await auditOf(clinic.tenantId, "certificate.upload_refused")).toHaveLength(5);
    // Another user of the same clinic is not locked by it.
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    expect((await upload(admin, body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"))).statusCode).toBe(201);
  });
});

describe("who may manage certificates", () => {
  it("answers 'Acesso negado' to front desk, legal and auditors; admins manage the clinic's, professionals their own", async () => {
    const clinic = await newEstablishment(ctx.app);
    const maria = await professional(clinic.tenantId);
    const clinicCert = (await upload(clinic, body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"))).json().certificado
      .id as string;
    const mariaCert = (await upload(maria, body(pki.ecpf.pfx, pki.ecpf.password, "profissional"))).json().certificado
      .id as string;
    for (const role of ["atendente", "juridico", "auditor"] as const) {
      const staff = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      for (const [method, url, payload] of [
        ["GET", "/api/certificates", undefined],
        ["POST", "/api/certificates", body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica")],
        ["DELETE", `/api/certificates/${clinicCert}`, undefined],
      ] as const) {
        const response = await call(staff, method, url, payload);
        expect(response.statusCode, `${role} ${method}`).toBe(403);
        expect(response.json()).toMatchObject({ code: "CERTIFICATES_FORBIDDEN", message: "Acesso negado" });
      }
    }
    const admin = await newStaff(ctx.app, ctx.database, clinic.tenantId, "admin");
    expect((await call(admin, "GET", "/api/certificates")).json().items).toHaveLength(2);
    expect((await upload(admin, body(pki.ecpf.pfx, pki.ecpf.password, "profissional"))).statusCode).toBe(403);
    const other = await professional(clinic.tenantId, "39053344705", "pro_saude");
    expect((await upload(other, body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"))).statusCode).toBe(403);
    expect((await call(other, "DELETE", `/api/certificates/${mariaCert}`)).statusCode).toBe(403);
    expect((await call(other, "DELETE", `/api/certificates/${clinicCert}`)).statusCode).toBe(403);
    expect((await call(maria, "DELETE", `/api/certificates/${mariaCert}`)).statusCode).toBe(200);
    expect((await call(admin, "DELETE", `/api/certificates/${clinicCert}`)).statusCode).toBe(200);
    // Another clinic's certificate does not exist for this one.
    expect((await call(owner, "DELETE", `/api/certificates/${clinicCert}`)).statusCode).toBe(404);
    expect(
      (await call(owner, "DELETE", "/api/certificates/00000000-0000-4000-8000-000000000000")).json(),
    ).toMatchObject({ code: "CERTIFICATE_NOT_FOUND" });
  });
});

describe("DELETE /api/certificates/:id and the certificate the signer gets", () => {
  it("unlocks the active clinic certificate once: its key signs and its certificate verifies; removal stops it at once", async () => {
    const clinic = await newEstablishment(ctx.app);
    const id = (await upload(clinic, body(pki.ecnpj.pfx3des, pki.ecnpj.password, "clinica"))).json().certificado
      .id as string;
    const { db } = ctx.database;
    const box = ctx.app.services.secretBox;
    const loaded = await activeClinicCertificate(db, box, clinic.tenantId);
    expect(loaded).toMatchObject({ id, icpBrasil: true, holderKind: "e-CNPJ" });
    const material = loaded!.material;
    expect(material.commonName).toBe(`CLINICA TESTE LTDA:${pki.cnpj}`);
    // The issuers, holder not repeated (SealMaterial.chainDer; the CMS writes holder + chain).
    expect(material.chainDer.map((der) => new X509Certificate(der).subject.split("\n").at(-1))).toEqual([
      "CN=AC Teste Consentir v1",
      "CN=Autoridade Certificadora Raiz de Teste v1",
    ]);
    expect(material.certificateDer.equals(pki.ecnpj.der)).toBe(true);
    const data = Buffer.from("conteúdo a assinar");
    const signature = sign("sha256", data, { key: material.privateKey, padding: constants.RSA_PKCS1_PADDING });
    expect(
      createVerify("sha256").update(data).verify(new X509Certificate(material.certificateDer).publicKey, signature),
    ).toBe(true);
    expect((await activeClinicCertificate(db, box, clinic.tenantId))!.material).toBe(material);
    // Past its expiry, or for a professional without one: nothing.
    expect(await activeClinicCertificate(db, box, clinic.tenantId, new Date(Date.now() + 2 * 365 * DAY))).toBeNull();
    expect(await activeProfessionalCertificate(db, box, clinic.tenantId, clinic.profileId)).toBeNull();

    const removed = await call(clinic, "DELETE", `/api/certificates/${id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ id, is_active: false, removed_at: expect.any(String) });
    expect((await call(clinic, "DELETE", `/api/certificates/${id}`)).json().is_active).toBe(false);
    expect(await auditOf(clinic.tenantId, "certificate.removed")).toHaveLength(1);
    const [row] = await rowsOf(clinic.tenantId);
    expect(row).toMatchObject({ is_active: false, removed_by: clinic.profileId });
    expect(await activeClinicCertificate(db, box, clinic.tenantId)).toBeNull();
  });

  it("gives a professional's own e-CPF to the signer, and only theirs", async () => {
    const clinic = await newEstablishment(ctx.app);
    const maria = await professional(clinic.tenantId);
    await upload(maria, body(pki.ecpf.pfx, pki.ecpf.password, "profissional"));
    const loaded = await activeProfessionalCertificate(
      ctx.database.db,
      ctx.app.services.secretBox,
      clinic.tenantId,
      maria.profileId,
    );
    expect(loaded).toMatchObject({
      holderKind: "e-CPF",
      icpBrasil: true,
      material: { fingerprintSha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(await activeClinicCertificate(ctx.database.db, ctx.app.services.secretBox, clinic.tenantId)).toBeNull();
    expect(
      await activeProfessionalCertificate(ctx.database.db, ctx.app.services.secretBox, owner.tenantId, maria.profileId),
    ).toBeNull();
  });
});

describe("expiry warnings (30, 7 and 1 days before)", () => {
  it("e-mails the owner once per threshold and remembers which were sent", async () => {
    const clinic = await newEstablishment(ctx.app);
    const id = (await upload(clinic, body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"))).json().certificado
      .id as string;
    const { db } = ctx.database;
    const expiresAt = new Date(Date.now() + 5 * DAY);
    await db.update(certificados).set({ vence_em: expiresAt }).where(eq(certificados.id, id));
    const outbox = async () =>
      (
        await outboxMails(
          ctx,
          null,
          sql`${emailOutbox.tenant_id} = ${clinic.tenantId} and ${emailOutbox.subject} like 'Certificado digital vence%'`,
        )
      ).map((m) => ({
        to_address: m.to_address,
        subject: m.subject,
        text: m.text,
      }));

    await warnCertificateExpiry(db, ctx.app.services.secretBox, "https://consentir.test");
    expect(await outbox()).toEqual([
      expect.objectContaining({
        to_address: clinic.email,
        subject: "Certificado digital vence em 5 dias: Certificado da clínica",
        text: expect.stringContaining("https://consentir.test/certificates"),
      }),
    ]);
    const [afterFirst] = await db
      .select()
      .from(certificados)
      .where(and(eq(certificados.id, id)));
    expect(afterFirst!.expiry_warnings_sent).toEqual([30, 7]);
    await warnCertificateExpiry(db, ctx.app.services.secretBox, "https://consentir.test");
    expect(await outbox()).toHaveLength(1);
    await warnCertificateExpiry(
      db,
      ctx.app.services.secretBox,
      "https://consentir.test",
      new Date(expiresAt.getTime() - 12 * 3600_000),
    );
    expect((await outbox()).map((e) => e.subject)).toEqual([
      "Certificado digital vence em 5 dias: Certificado da clínica",
      "Certificado digital vence em 1 dia: Certificado da clínica",
    ]);
    expect(await auditOf(clinic.tenantId, "certificate.expiry_warning_sent")).toHaveLength(2);
  });
});

describe("whether the chain ends at an official ICP-Brasil root (decision 047)", () => {
  const scratch = mkdtempSync(path.join(tmpdir(), "consentir-raizes-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** An app on the same database given `rootPem` as the official roots file. */
  async function appWithRoots(name: string, rootPem: string) {
    const file = path.join(scratch, name);
    writeFileSync(file, rootPem);
    return createTestApp({ database: ctx.database, env: { ICP_BRASIL_ROOTS_FILE: file } });
  }

  /** A new clinic with the test e-CNPJ's CNPJ uploads it through `app`. */
  async function uploadThrough(app: TestContext["app"]) {
    const clinic = await newEstablishment(app);
    await ctx.database.db.update(tenants).set({ cnpj: pki.cnpj }).where(eq(tenants.id, clinic.tenantId));
    const response = await app.inject({
      method: "POST",
      url: "/api/certificates",
      headers: { cookie: clinic.cookie },
      payload: body(pki.ecnpj.pfx, pki.ecnpj.password, "clinica"),
    });
    expect(response.statusCode, response.body).toBe(201);
    return { clinic, response };
  }

  it("names the official root on the card when the chain ends at one, and does not warn about the root", async () => {
    const rooted = await appWithRoots("oficiais.pem", pki.root.pem);
    try {
      const { clinic, response } = await uploadThrough(rooted.app);
      // Nothing about the root; the test PKI names no revocation list, which is said (decision 048).
      expect(response.json().avisos).toEqual([
        expect.stringMatching(
          /^Não foi possível consultar agora a lista de revogação \(LCR\).*não indica onde está sua lista de revogação/,
        ),
      ]);
      expect(response.json().certificado.raiz).toEqual({
        conferencia: "raiz_oficial",
        nome: "Autoridade Certificadora Raiz de Teste v1",
      });
      const list = await rooted.app.inject({
        method: "GET",
        url: "/api/certificates",
        headers: { cookie: clinic.cookie },
      });
      expect(list.json().items.map((c: { raiz: unknown }) => c.raiz)).toEqual([
        { conferencia: "raiz_oficial", nome: "Autoridade Certificadora Raiz de Teste v1" },
      ]);
    } finally {
      await rooted.close();
    }
  });

  it("warns at upload when a certificate that claims ICP-Brasil ends at another root", async () => {
    const otherRoot = issueCertificate({
      subject: [
        { shortName: "C", value: "BR" },
        { shortName: "O", value: "ICP-Brasil" },
        { shortName: "CN", value: "Outra Raiz Oficial de Teste" },
      ],
      ca: true,
    });
    const rooted = await appWithRoots("outra.pem", otherRoot.pem);
    try {
      const { clinic, response } = await uploadThrough(rooted.app);
      expect(response.json().certificado.raiz).toEqual({ conferencia: "outra_raiz", nome: null });
      expect(response.json().avisos).toEqual([
        expect.stringMatching(/^A cadeia deste certificado não termina numa das raízes oficiais da ICP-Brasil/),
      ]);
      // The same certificate, listed by an app that was given no roots, is 'not checked', not 'another root'.
      const plain = await call(clinic, "GET", "/api/certificates");
      expect(plain.json().items[0].raiz).toEqual({ conferencia: "nao_conferida", nome: null });
    } finally {
      await rooted.close();
    }
  });
});
