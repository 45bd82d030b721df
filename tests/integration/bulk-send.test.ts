import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos, emailOutbox } from "../../src/db/schema.js";
import { BULK_ROW_ERRORS, BULK_SEND_MAX_ROWS } from "../../src/shared/schemas/bulk-send.js";
import { ERRORS } from "../../src/shared/errors.js";
import { validCpf } from "../helpers/factories.js";
import { outboxMails } from "../helpers/outbox.js";
import { twoClinics } from "../helpers/clinics.js";
import { newStaff, type SignedIn } from "../helpers/sessions.js";
import { caller, signingPatient } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * Enviar em lote (decision 076): one document per row, created and sent by the services of one
 * send; a bad row (invalid CPF, unknown patient, no channel, another clinic's patient) is reported
 * and the others are sent.
 */
let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let receptionist: SignedIn;
let versionId: string;
let otherVersionId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  ({ clinic, other, receptionist, versionId, otherVersionId } = await twoClinics(ctx, { frontDesk: true }));
});
afterAll(async () => {
  await ctx?.close();
});

const as = (who: SignedIn, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  caller(ctx.app, who)(method, url, payload);

const batch = (who: SignedIn, linhas: unknown[], extra: Record<string, unknown> = {}) =>
  as(who, "POST", "/api/documents/bulk", {
    template_version_id: versionId,
    titulo: "TCLE - Toxina botulínica",
    procedimento: "Toxina botulínica",
    medico_responsavel_id: clinic.profileId,
    variaveis: { riscos_personalizados: "Hematoma" },
    email: true,
    linhas,
    ...extra,
  });

const documentsOf = (tenantId: string) =>
  ctx.database.db.select().from(contratos).where(eq(contratos.tenant_id, tenantId));

describe("POST /api/documents/bulk", () => {
  it("sends one document per valid row and reports each bad row, sending the others", async () => {
    const byId = await signingPatient(ctx.app, clinic, { nome: "Beatriz Souza Lima" });
    const byCpf = await signingPatient(ctx.app, clinic, { nome: "Carlos Eduardo Prado" });
    const noChannel = await signingPatient(ctx.app, clinic, { nome: "Dora Sem Contato", email: null });
    const foreign = await signingPatient(ctx.app, other, { nome: "Elisa Outra Clínica" });
    // A minor without a guardian on record: sendDocument refuses, after createDocument ran.
    const minor = await signingPatient(ctx.app, clinic, {
      nome: "Felipe Menor",
      email: "felipe.menor@exemplo.com.br",
      fields: { data_nascimento: "2018-03-04" },
    });
    const before = (await documentsOf(clinic.tenantId)).length;

    const response = await batch(receptionist, [
      { paciente_id: byId.id },
      { cpf: byCpf.cpf.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, "$1.$2.$3-$4") },
      { cpf: "123.456.789-00" },
      { paciente_id: noChannel.id },
      { paciente_id: foreign.id },
      { cpf: foreign.cpf },
      { cpf: validCpf() },
      { paciente_id: byId.id },
      { paciente_id: minor.id },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ enviados: 2, falhas: 7 });
    const rows = body.resultados as Array<Record<string, any>>;
    expect(rows.map((row) => row.linha)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rows[0]).toMatchObject({ paciente_id: byId.id, enviado: true, email_enviado: true, erro: null });
    expect(rows[1]).toMatchObject({ paciente_id: byCpf.id, cpf: byCpf.cpf, enviado: true, erro: null });
    expect(rows[2]).toMatchObject({
      enviado: false,
      documento_id: null,
      erro: { mensagem: BULK_ROW_ERRORS.CPF_INVALID },
    });
    expect(rows[3]).toMatchObject({
      paciente_nome: "Dora Sem Contato",
      enviado: false,
      documento_id: null,
      erro: { codigo: "NO_CHANNEL", mensagem: BULK_ROW_ERRORS.NO_CHANNEL },
    });
    // Another clinic's patient, by id or CPF, is unknown here: nothing about them comes back.
    expect(rows[4]).toMatchObject({ paciente_id: null, paciente_nome: null, erro: { codigo: "PATIENT_NOT_FOUND" } });
    expect(rows[5]).toMatchObject({ paciente_nome: null, erro: { codigo: "PATIENT_NOT_FOUND_BY_CPF" } });
    expect(rows[6]).toMatchObject({ erro: { mensagem: BULK_ROW_ERRORS.PATIENT_NOT_FOUND_BY_CPF } });
    expect(rows[7]).toMatchObject({ erro: { codigo: "PATIENT_REPEATED" } });
    // The rule of one send, from the same service; its row leaves no draft behind (one transaction).
    expect(rows[8]).toMatchObject({
      paciente_nome: "Felipe Menor",
      documento_id: null,
      erro: { codigo: "GUARDIAN_MISSING", mensagem: ERRORS.GUARDIAN_MISSING.message },
    });
    expect(JSON.stringify(body)).not.toContain("Elisa");

    // Only the two sent rows made documents; each is sent, with its link e-mailed, as one send does.
    const created = (await documentsOf(clinic.tenantId)).slice();
    expect(created.length).toBe(before + 2);
    const ids = [rows[0]!.documento_id as string, rows[1]!.documento_id as string];
    const sent = await ctx.database.db.select().from(contratos).where(inArray(contratos.id, ids));
    expect(sent.map((row) => row.status)).toEqual(["sent", "sent"]);
    expect(sent.every((row) => row.medico_responsavel_id === clinic.profileId && row.titulo.includes("Toxina"))).toBe(
      true,
    );
    for (const patient of [byId, byCpf]) {
      const mails = await outboxMails(ctx, patient.email);
      expect(mails.map((mail) => mail.subject)).toEqual([expect.stringContaining("documento para assinatura")]);
    }
    const events = await ctx.database.db
      .select({ action: auditEvents.action, entity: auditEvents.entity_id })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, clinic.tenantId), inArray(auditEvents.entity_id, ids)));
    for (const id of ids) {
      const actions = events.filter((event) => event.entity === id).map((event) => event.action);
      expect(actions).toEqual(expect.arrayContaining(["document.created", "document.sent"]));
      // The link e-mail, audited as one send does (waiting in the outbox: no SMTP in tests).
      expect(actions.some((action) => action.startsWith("document.link_email"))).toBe(true);
    }
    const [batchEvent] = await ctx.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenant_id, clinic.tenantId), eq(auditEvents.action, "document.bulk_sent")));
    expect(batchEvent?.data).toMatchObject({ linhas: 9, enviados: 2, falhas: 7 });
    // The professional hears once for the batch, not once per document (decision 050).
    const [owner] = await outboxMails(ctx, clinic.email);
    expect(owner?.subject).toContain("aguardam");
    expect((await outboxMails(ctx, clinic.email)).length).toBe(1);
  });

  it("sends nothing twice when a request of the same batch is tried again", async () => {
    const patient = await signingPatient(ctx.app, clinic, { nome: "Gabriela Repete" });
    const since = (await as(clinic, "GET", "/api/documents/bulk/options")).json().agora as string;
    const first = await batch(clinic, [{ paciente_id: patient.id }], { lote_desde: since });
    expect(first.json().resultados[0]).toMatchObject({ enviado: true, ja_enviado: false });
    const documentId = first.json().resultados[0].documento_id as string;
    // The answer was lost and the screen tries again, by CPF this time: the same document answers.
    const again = await batch(clinic, [{ cpf: patient.cpf }], { lote_desde: since });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ enviados: 1, falhas: 0 });
    expect(again.json().resultados[0]).toMatchObject({ documento_id: documentId, enviado: true, ja_enviado: true });
    const theirs = await ctx.database.db.select().from(contratos).where(eq(contratos.paciente_id, patient.id));
    expect(theirs.length).toBe(1);
    expect((await outboxMails(ctx, patient.email)).length).toBe(1);
    // A new batch (later start) is a new send, as one send would be.
    const later = await batch(clinic, [{ paciente_id: patient.id }], { lote_desde: new Date().toISOString() });
    expect(later.json().resultados[0]).toMatchObject({ enviado: true, ja_enviado: false });
    expect(later.json().resultados[0].documento_id).not.toBe(documentId);
    // A start more than a day back is refused, in Portuguese.
    const old = await batch(clinic, [{ paciente_id: patient.id }], {
      lote_desde: new Date(Date.now() - 2 * 24 * 3600_000).toISOString(),
    });
    expect(old.statusCode, old.body).toBe(400);
    expect(old.json().message).toBe(BULK_ROW_ERRORS.BATCH_TOO_OLD);
  });

  it("sends once when two requests of the same batch run at the same time", async () => {
    const patients = await Promise.all(
      ["Helena Ao Mesmo Tempo", "Igor Ao Mesmo Tempo", "Júlia Ao Mesmo Tempo"].map((nome) =>
        signingPatient(ctx.app, clinic, { nome }),
      ),
    );
    const since = (await as(clinic, "GET", "/api/documents/bulk/options")).json().agora as string;
    const rows = patients.map((p) => ({ paciente_id: p.id }));
    // Two tabs (or an API client's retry while the first still runs), the rows in opposite orders.
    const [a, b] = await Promise.all([
      batch(clinic, rows, { lote_desde: since }),
      batch(clinic, [...rows].reverse(), { lote_desde: since }),
    ]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.statusCode, b.body).toBe(200);
    for (const patient of patients) {
      const theirs = await ctx.database.db.select().from(contratos).where(eq(contratos.paciente_id, patient.id));
      expect(theirs.length, patient.nome).toBe(1);
      expect((await outboxMails(ctx, patient.email)).length, patient.nome).toBe(1);
    }
    const fresh = [...a.json().resultados, ...b.json().resultados].filter(
      (row: { ja_enviado: boolean }) => !row.ja_enviado,
    );
    expect(fresh.length).toBe(patients.length);
  });

  it("answers another clinic's template like a missing one and creates nothing", async () => {
    const patient = await signingPatient(ctx.app, clinic);
    const before = (await documentsOf(clinic.tenantId)).length;
    const response = await batch(clinic, [{ paciente_id: patient.id }], { template_version_id: otherVersionId });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toMatchObject({ code: "NOT_FOUND", message: "Template não encontrado" });
    expect((await documentsOf(clinic.tenantId)).length).toBe(before);
    expect((await documentsOf(other.tenantId)).length).toBe(0);
  });

  it("refuses a malformed body with a pt-BR 400", async () => {
    const patient = await signingPatient(ctx.app, clinic);
    for (const [payload, message] of [
      [{ template_version_id: versionId, titulo: "TCLE", email: true }, "Informe os pacientes do lote"],
      [{ template_version_id: versionId, titulo: "TCLE", email: true, linhas: [] }, "Escolha ao menos um paciente"],
      [{ template_version_id: versionId, titulo: "TCLE", email: true, linhas: [{ paciente_id: "x" }] }, null],
      [{ template_version_id: versionId, titulo: "TCLE", email: "sim", linhas: [{ paciente_id: patient.id }] }, null],
      [{ template_version_id: "nada", titulo: "TCLE", email: true, linhas: [{ paciente_id: patient.id }] }, null],
    ] as const) {
      const response = await as(clinic, "POST", "/api/documents/bulk", payload);
      expect(response.statusCode, response.body).toBe(400);
      const body = response.json();
      expect(body.code).toBe("VALIDATION");
      if (message) expect(body.message).toBe(message);
      expect(body.message).not.toMatch(/expected|invalid_type|Required/i);
    }
    const junk = await ctx.app.inject({
      method: "POST",
      url: "/api/documents/bulk",
      payload: "{not json",
      headers: { cookie: clinic.cookie, "content-type": "application/json" },
    });
    expect(junk.statusCode).toBe(400);
    // No channel chosen: every row would fail alike, so the request is refused.
    const noChannel = await batch(clinic, [{ paciente_id: patient.id }], { email: false, whatsapp: false });
    expect(noChannel.statusCode, noChannel.body).toBe(400);
    expect(noChannel.json().message).toContain("canal de envio");
  });

  it(`takes at most ${BULK_SEND_MAX_ROWS} rows`, async () => {
    const rows = Array.from({ length: BULK_SEND_MAX_ROWS + 1 }, () => ({ cpf: "000" }));
    const response = await batch(clinic, rows);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(`Envie no máximo ${BULK_SEND_MAX_ROWS} pacientes por lote`);
    // At the bound it is accepted, each row answered (here all invalid CPFs, nothing created).
    const before = (await documentsOf(clinic.tenantId)).length;
    const full = await batch(clinic, rows.slice(1));
    expect(full.statusCode, full.body).toBe(200);
    expect(full.json()).toMatchObject({ enviados: 0, falhas: BULK_SEND_MAX_ROWS });
    expect((await documentsOf(clinic.tenantId)).length).toBe(before);
  });

  it("follows the role policy of one create and send, and the clinic's signing order", async () => {
    const patient = await signingPatient(ctx.app, clinic);
    for (const role of ["auditor", "juridico"] as const) {
      const reader = await newStaff(ctx.app, ctx.database, clinic.tenantId, role);
      const refused = await batch(reader, [{ paciente_id: patient.id }]);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ code: "FORBIDDEN", message: ERRORS.FORBIDDEN.message });
      expect((await as(reader, "GET", "/api/documents/bulk/options")).statusCode).toBe(403);
    }
    expect(
      (await ctx.app.inject({ method: "POST", url: "/api/documents/bulk", payload: { linhas: [] } })).statusCode,
    ).toBe(401);

    const options = await as(receptionist, "GET", "/api/documents/bulk/options");
    expect(options.json()).toMatchObject({ max_linhas: BULK_SEND_MAX_ROWS, profissional_antes_do_envio: false });
    // "Antes do envio" (decision 050): no document could be sent before the professional signs it.
    expect(
      (await as(clinic, "PUT", "/api/settings/signing", { ordem_profissional: "antes_do_envio" })).statusCode,
    ).toBe(200);
    try {
      expect((await as(receptionist, "GET", "/api/documents/bulk/options")).json().profissional_antes_do_envio).toBe(
        true,
      );
      const before = (await documentsOf(clinic.tenantId)).length;
      const refused = await batch(receptionist, [{ paciente_id: patient.id }]);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json().message).toContain("antes do envio");
      expect((await documentsOf(clinic.tenantId)).length).toBe(before);
    } finally {
      await as(clinic, "PUT", "/api/settings/signing", { ordem_profissional: "qualquer_ordem" });
    }
    // Whoever must name the responsible physician in one create must name them here too.
    const unnamed = await batch(receptionist, [{ paciente_id: patient.id }], { medico_responsavel_id: undefined });
    expect(unnamed.statusCode, unnamed.body).toBe(400);
    expect(unnamed.json().code).toBe("DOCUMENT_PHYSICIAN_REQUIRED");
    // With an API key (decision 058): the key's clinic and role, the same route.
    const key = await as(clinic, "POST", "/api/settings/api-keys", { nome: "Sistema da recepção", role: "atendente" });
    expect(key.statusCode, key.body).toBe(201);
    const foreignId = (await signingPatient(ctx.app, other)).id;
    const byKey = (extra: Record<string, unknown>) =>
      ctx.app.inject({
        method: "POST",
        url: "/api/documents/bulk",
        headers: { authorization: `Bearer ${key.json().segredo as string}` },
        payload: {
          template_version_id: versionId,
          titulo: "TCLE por integração",
          medico_responsavel_id: clinic.profileId,
          variaveis: { riscos_personalizados: "Hematoma" },
          email: true,
          linhas: [{ paciente_id: patient.id }, { paciente_id: foreignId }],
          ...extra,
        },
      });
    // The template's title needs {{procedimento}}: without it the row names what is missing, as
    // one create refuses, and leaves nothing behind.
    const unresolved = await byKey({});
    expect(unresolved.statusCode, unresolved.body).toBe(200);
    expect(unresolved.json().resultados[0]).toMatchObject({
      documento_id: null,
      erro: { codigo: "DOCUMENT_UNRESOLVED" },
    });
    expect(unresolved.json().resultados[0].erro.mensagem).toContain("{{procedimento}}");
    const viaKey = await byKey({ procedimento: "Toxina botulínica" });
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    expect(
      viaKey.json().resultados.map((row: { enviado: boolean }) => row.enviado),
      viaKey.body,
    ).toEqual([true, false]);
    expect(viaKey.json().resultados[1].erro.codigo).toBe("PATIENT_NOT_FOUND");
    // The document's own trail, as staff read it, names the key (and who created it) as the actor.
    const made = await as(clinic, "GET", `/api/documents/${viaKey.json().resultados[0].documento_id as string}`);
    expect(made.statusCode, made.body).toBe(200);
    const trail = made.json().audit as { action: string; actor_nome: string | null }[];
    const keyActor = `Chave de API “Sistema da recepção” (${key.json().chave.prefixo as string}…), criada por `;
    for (const action of ["document.created", "document.sent"])
      expect(trail.find((event) => event.action === action)?.actor_nome, action).toMatch(
        new RegExp(`^${keyActor.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      );
    // "Criar mesmo com variáveis sem valor", as one create allows.
    const gaps = await byKey({
      permitir_pendencias: true,
      linhas: [{ paciente_id: (await signingPatient(ctx.app, clinic)).id }],
    });
    expect(gaps.json().resultados[0], gaps.body).toMatchObject({ enviado: true });
    const outbox = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.tenant_id, other.tenantId));
    expect(outbox.length).toBe(0);
  });
});
