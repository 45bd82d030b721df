import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, jobs } from "../../src/db/schema.js";
import { BULK_ROW_ERRORS } from "../../src/shared/schemas/bulk-send.js";
import { SMS_LINK_MESSAGES } from "../../src/shared/schemas/signing.js";
import type { FakeZenviaServer } from "../fakes/zenvia-server.js";
import { validCpf } from "../helpers/factories.js";
import { outboxMails } from "../helpers/outbox.js";
import type { SignedIn } from "../helpers/sessions.js";
import { as, smsWorld } from "../helpers/sms.js";
import { publishedTemplateVersion } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * Enviar em lote by SMS (decisions 076 and 066): the link to each patient's mobile, as one send
 * with "SMS" ticked; a patient without a mobile is reported on their own row and the others go.
 */
let ctx: TestContext;
let bare: TestContext;
let zenvia: FakeZenviaServer;
let clinic: SignedIn;
let other: SignedIn;
let bareClinic: SignedIn;
let versionId: string;

let world: Awaited<ReturnType<typeof smsWorld>>;

beforeAll(async () => {
  world = await smsWorld((zenvia: FakeZenviaServer) =>
    createTestApp({ env: { SMS_PROVIDER_URL: zenvia.url, SMS_API_TOKEN: "token-de-teste", SMS_FROM: "clinica" } }),
  );
  ({ ctx, bare, zenvia, clinic, other, bareClinic, versionId } = world);
});
afterAll(async () => {
  await world?.close();
});

const batch = (linhas: unknown[], extra: Record<string, unknown> = {}) =>
  as(ctx, clinic)("POST", "/api/documents/bulk", {
    template_version_id: versionId,
    titulo: "TCLE - Toxina botulínica",
    procedimento: "Toxina botulínica",
    medico_responsavel_id: clinic.profileId,
    variaveis: { riscos_personalizados: "Hematoma" },
    linhas,
    ...extra,
  });

async function patient(app: TestContext, who: SignedIn, data: { nome: string; telefone?: string; email?: string }) {
  const cpf = validCpf();
  const response = await as(app, who)("POST", "/api/patients", { cpf, data_nascimento: "1984-04-04", ...data });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().id as string, cpf, ...data };
}

/** Runs the queued SMS of these documents and answers what the fake received. */
async function deliver(documentIds: string[]) {
  const queued = () =>
    ctx.database.db
      .select()
      .from(jobs)
      .where(
        and(
          eq(jobs.kind, "sms.send"),
          eq(jobs.status, "pending"),
          inArray(sql<string>`${jobs.payload} ->> 'contratoId'`, documentIds),
        ),
      );
  await ctx.database.db
    .update(jobs)
    .set({ run_at: new Date() })
    .where(and(eq(jobs.kind, "sms.send"), inArray(sql<string>`${jobs.payload} ->> 'contratoId'`, documentIds)));
  for (let i = 0; i < 10 && (await queued()).length > 0; i++) await ctx.app.worker.tick({ sweep: false });
  expect(await queued()).toHaveLength(0);
  return zenvia.received;
}

describe("bulk send by SMS", () => {
  it("sends the link by SMS to each mobile; a patient without one is told on their row, the others are sent", async () => {
    const options = (await as(ctx, clinic)("GET", "/api/documents/bulk/options")).json();
    expect(options).toMatchObject({ sms_disponivel: true });
    const ana = await patient(ctx, clinic, { nome: "Ana Lote Ribeiro", telefone: "(11) 98765-5001" });
    const bruno = await patient(ctx, clinic, { nome: "Bruno Lote Dias", telefone: "(21) 99876-5002" });
    const caio = await patient(ctx, clinic, { nome: "Caio Telefone Fixo", telefone: "(11) 3456-7890" });
    const dora = await patient(ctx, clinic, { nome: "Dora Sem Telefone" });
    const foreign = await patient(ctx, other, { nome: "Elisa Outra Clínica", telefone: "(11) 98765-5005" });

    const response = await batch(
      [
        { paciente_id: ana.id },
        { cpf: bruno.cpf },
        { paciente_id: caio.id },
        { paciente_id: dora.id },
        { paciente_id: foreign.id },
      ],
      { sms: true, email: false },
    );
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ enviados: 2, falhas: 3 });
    const rows = body.resultados as Array<Record<string, any>>;
    expect(rows[0]).toMatchObject({ paciente_id: ana.id, enviado: true, sms_enviado: true, sms_motivo: null });
    expect(rows[1]).toMatchObject({ paciente_id: bruno.id, enviado: true, sms_enviado: true, email_enviado: false });
    // SMS was the only channel: the row says the mobile is what is missing, and nothing was made.
    for (const [row, nome] of [
      [rows[2], caio.nome],
      [rows[3], dora.nome],
    ] as const) {
      expect(row).toMatchObject({
        paciente_nome: nome,
        enviado: false,
        documento_id: null,
        sms_enviado: false,
        erro: { codigo: "NO_MOBILE", mensagem: BULK_ROW_ERRORS.NO_MOBILE },
      });
    }
    expect(rows[4]).toMatchObject({ paciente_id: null, erro: { codigo: "PATIENT_NOT_FOUND" } });
    expect(response.body).not.toContain("Elisa");

    const ids = [rows[0]!.documento_id as string, rows[1]!.documento_id as string];
    const received = await deliver(ids);
    for (const [to, nome] of [
      ["5511987655001", "Ana"],
      ["5521998765002", "Bruno"],
    ] as const) {
      const theirs = received.filter((message) => message.to === to);
      expect(theirs, to).toHaveLength(1);
      expect(theirs[0]!.text).toMatch(new RegExp(`^.+: ${nome}, há um documento para você assinar\\. Link pessoal: `));
      expect(theirs[0]!.text).toContain("/assinar/");
      expect(theirs[0]!.text).not.toContain("Toxina");
    }
    expect(received.some((message) => message.to === "5511987655005")).toBe(false);
    const events = await ctx.database.db
      .select({ entity: auditEvents.entity_id, data: auditEvents.data })
      .from(auditEvents)
      .where(and(inArray(auditEvents.entity_id, ids), eq(auditEvents.action, "document.link_sms_sent")));
    expect(events.map((event) => event.entity).sort()).toEqual([...ids].sort());
  });

  it("with e-mail and SMS, a patient without a mobile is sent by e-mail and the row says the SMS did not go", async () => {
    const fabio = await patient(ctx, clinic, {
      nome: "Fábio Com Tudo",
      telefone: "(11) 98765-5006",
      email: `fabio.${validCpf()}@exemplo.com.br`,
    });
    const gina = await patient(ctx, clinic, { nome: "Gina Só E-mail", email: `gina.${validCpf()}@exemplo.com.br` });
    const response = await batch([{ paciente_id: fabio.id }, { paciente_id: gina.id }], { sms: true, email: true });
    expect(response.statusCode, response.body).toBe(200);
    const rows = response.json().resultados as Array<Record<string, any>>;
    expect(rows[0]).toMatchObject({ enviado: true, email_enviado: true, sms_enviado: true, sms_motivo: null });
    expect(rows[1]).toMatchObject({
      enviado: true,
      email_enviado: true,
      sms_enviado: false,
      sms_motivo: SMS_LINK_MESSAGES.noMobile,
      erro: null,
    });
    expect(await outboxMails(ctx, gina.email!)).toHaveLength(1);
    const received = await deliver([rows[0]!.documento_id as string, rows[1]!.documento_id as string]);
    expect(received.filter((message) => message.to === "5511987655006")).toHaveLength(1);
  });

  it("sends nothing by SMS unless asked; refuses a malformed sms and SMS alone on a server without SMS", async () => {
    const hugo = await patient(ctx, clinic, {
      nome: "Hugo Sem Pedido",
      telefone: "(11) 98765-5008",
      email: `hugo.${validCpf()}@exemplo.com.br`,
    });
    const plain = await batch([{ paciente_id: hugo.id }], { email: true });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().resultados[0]).toMatchObject({ enviado: true, sms_enviado: false, sms_motivo: null });
    await deliver([plain.json().resultados[0].documento_id as string]);
    expect(zenvia.received.some((message) => message.to === "5511987655008")).toBe(false);

    const malformed = await batch([{ paciente_id: hugo.id }], { sms: "sim" });
    expect(malformed.statusCode, malformed.body).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "VALIDATION", message: "Valor inválido" });

    expect((await as(bare, bareClinic)("GET", "/api/documents/bulk/options")).json()).toMatchObject({
      sms_disponivel: false,
    });
    const bareVersion = await publishedTemplateVersion(bare.app, bareClinic);
    const someone = await patient(bare, bareClinic, { nome: "Íris Sem SMS", telefone: "(11) 98765-5009" });
    const refused = await as(bare, bareClinic)("POST", "/api/documents/bulk", {
      template_version_id: bareVersion,
      titulo: "TCLE",
      procedimento: "Toxina botulínica",
      medico_responsavel_id: bareClinic.profileId,
      variaveis: { riscos_personalizados: "Hematoma" },
      sms: true,
      linhas: [{ paciente_id: someone.id }],
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toBe("Escolha ao menos um canal de envio disponível: e-mail, WhatsApp ou SMS.");
  });
});
