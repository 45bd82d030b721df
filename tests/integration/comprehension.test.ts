/**
 * Comprehension questions (decision 061) through the public routes: each answer scored on the
 * server and kept as an event of the document's own chain, bounded (unknown questions, options out
 * of range, another version's content, a question already right, MAX_ATTEMPTS_PER_QUESTION, after
 * signing: pt-BR 4xx, nothing kept); "Quero falar com o profissional" pauses the signature and
 * notifies the responsible professional; the signature's event, evidencias.json, the sealed
 * registry, the offline verifier and the staff page carry every try.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq, sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratos } from "../../src/db/schema.js";
import { embeddedFiles } from "../../src/server/services/sealing/pdf-embedded-files.js";
import { verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { expectBrowserParity } from "../helpers/browser-parity.js";
import { MAX_ATTEMPTS_PER_QUESTION } from "../../src/shared/document-model/comprehension.js";
import { ERRORS } from "../../src/shared/errors.js";
import type { Evidence } from "../../src/shared/evidence/evidence.js";
import { nodeEntryArgs } from "../helpers/node-entry.js";
import { waitFor } from "../helpers/server-process.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let templateId: string;

const QUESTIONS = [
  {
    id: "resultado",
    section_id: "s1",
    text: "O resultado é garantido?",
    options: ["Sim, garantido", "Não: depende também do meu organismo", "Só pagando a mais"],
    correct: 1,
  },
  {
    id: "alerta",
    section_id: "s2",
    text: "Com febre depois do procedimento, o que fazer?",
    options: ["Avisar a clínica na hora", "Esperar o retorno"],
    correct: 0,
  },
  {
    id: "desistir",
    section_id: "s1",
    text: "Posso desistir depois de assinar?",
    options: ["Não", "Sim, a qualquer momento antes do procedimento"],
    correct: 1,
  },
];
const STRUCTURE = {
  title: "Termo — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos e resultado", content: "Nenhum resultado é garantido." },
    { id: "s2", type: "paragraph", title: "Cuidados", content: "Febre: avise a clínica." },
    { id: "s3", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
  ],
  comprehension: QUESTIONS,
};

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, who?: SignedIn) =>
  ctx.app.inject({
    method,
    url,
    payload: payload as object,
    headers: {
      ...(who ? { cookie: who.cookie } : {}),
      ...(typeof payload === "string" ? { "content-type": "application/json" } : {}),
    },
  });
const answer = (token: string, body: unknown) => call("POST", `/api/public/sign/${token}/comprehension`, body);
const pause = (token: string, body?: unknown) => call("POST", `/api/public/sign/${token}/comprehension/pause`, body);
const events = (documentId: string, action: string) =>
  ctx.database.db
    .select({ data: auditEvents.data, tenant: auditEvents.tenant_id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, documentId),
        eq(auditEvents.action, action),
      ),
    )
    .orderBy(asc(auditEvents.seq));
const answers = (documentId: string) => events(documentId, "document.comprehension_answered");
const expectError = (response: { statusCode: number; body: string; json(): any }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json().code).toBe(code);
  expect(response.json().message).toMatch(/[a-zà-ú]/);
};

async function questionTemplate(who: SignedIn, structure: unknown = STRUCTURE) {
  const specialties = (await call("GET", "/api/templates/specialties", undefined, who)).json().items as string[];
  const created = await call(
    "POST",
    "/api/templates",
    { titulo: "TCLE com perguntas", especialidade: specialties[0], categoria: "Consentimento", estrutura: structure },
    who,
  );
  expect(created.statusCode, created.body).toBe(201);
  const published = await call("POST", `/api/templates/${created.json().id}/status`, { status: "published" }, who);
  expect(published.statusCode, published.body).toBe(200);
  return { templateId: created.json().id as string, versionId: published.json().versao_atual_id as string };
}

/** A document on `version` for a new patient, sent; `author` is the responsible professional. */
async function sent(author: SignedIn, version: string) {
  const patient = await signingPatient(ctx.app, author);
  const documentId = await draftDocument(ctx.app, author, version, patient.id);
  const response = await call("POST", `/api/documents/${documentId}/send`, {}, author);
  expect(response.statusCode, response.body).toBe(200);
  const token = tokenOf(response.json().link);
  const page = (await call("GET", `/api/public/sign/${token}`)).json();
  return { documentId, patient, token, sha: page.documento.conteudo_sha256 as string, page };
}

async function sealed(documentId: string, who: SignedIn): Promise<Buffer> {
  for (let round = 0; round < 8; round++) {
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    if (row?.signed_pdf_file_id) break;
    await ctx.app.worker.tick();
  }
  const download = await call("GET", `/api/documents/${documentId}/signed-pdf`, undefined, who);
  expect(download.statusCode, download.body.slice(0, 200)).toBe(200);
  return download.rawPayload;
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  for (const who of [clinic, other]) {
    expect((await call("PUT", "/api/settings/signing", { codigo_email: false }, who)).statusCode).toBe(200);
  }
  ({ templateId, versionId } = await questionTemplate(clinic));
});
afterAll(async () => {
  await ctx.close();
});

describe("comprehension answers (decision 061)", () => {
  it("scores each try on the server; the signature waits for them; evidence, registry, verifier and staff page carry every try", async () => {
    const { documentId, patient, token, sha, page } = await sent(clinic, versionId);
    // The page has the questions without their right option, and their state.
    expect(page.documento.modelo.comprehension).toEqual(QUESTIONS.map(({ correct: _c, ...q }) => q));
    expect(JSON.stringify(page.documento.modelo.comprehension)).not.toContain("correct");
    expect(page.compreensao).toEqual({
      respostas: QUESTIONS.map((q) => ({ pergunta_id: q.id, verificada: false, tentativas: 0 })),
      pausada: false,
      max_tentativas: MAX_ATTEMPTS_PER_QUESTION,
    });

    // Signing before the questions: refused, nothing signed.
    expectError((await signAsPatient(ctx.app, ctx.database, token, patient)).response, "COMPREHENSION_PENDING");

    const first = await answer(token, { conteudo_sha256: sha, pergunta_id: "resultado", opcao: 1 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ correta: true, secao_id: "s1", tentativas: 1 });
    const wrong = await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 1 });
    expect(wrong.json()).toMatchObject({ correta: false, secao_id: "s2", tentativas: 1 });
    expect(wrong.json().compreensao.respostas[1]).toEqual({ pergunta_id: "alerta", verificada: false, tentativas: 1 });
    expectError((await signAsPatient(ctx.app, ctx.database, token, patient)).response, "COMPREHENSION_PENDING");
    expect((await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 })).json()).toMatchObject({
      correta: true,
      tentativas: 2,
    });
    expect((await answer(token, { conteudo_sha256: sha, pergunta_id: "desistir", opcao: 1 })).json().correta).toBe(
      true,
    );
    // A question already right is not answered again.
    expectError(
      await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 1 }),
      "COMPREHENSION_ALREADY_RIGHT",
    );
    // The reopened page knows what was answered.
    expect((await call("GET", `/api/public/sign/${token}`)).json().compreensao.respostas).toEqual([
      { pergunta_id: "resultado", verificada: true, tentativas: 1 },
      { pergunta_id: "alerta", verificada: true, tentativas: 2 },
      { pergunta_id: "desistir", verificada: true, tentativas: 1 },
    ]);

    const kept = await answers(documentId);
    expect(
      kept.map((e) => {
        const d = e.data as { pergunta_id: string; opcao: number; correta: boolean; tentativa: number; papel: string };
        return [d.pergunta_id, d.opcao, d.correta, d.tentativa, d.papel];
      }),
    ).toEqual([
      ["resultado", 1, true, 1, "paciente"],
      ["alerta", 1, false, 1, "paciente"],
      ["alerta", 0, true, 2, "paciente"],
      ["desistir", 1, true, 1, "paciente"],
    ]);

    const signed = await signAsPatient(ctx.app, ctx.database, token, patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [partySigned] = (await events(documentId, "document.party_signed")).filter(
      (e) => (e.data as { papel: string }).papel === "paciente",
    );
    const compreensao = (partySigned!.data as { compreensao: any }).compreensao;
    expect(compreensao).toMatchObject({ verificadas: 3, total: 3 });
    expect(compreensao.perguntas[1]).toMatchObject({
      id: "alerta",
      secao_id: "s2",
      pergunta: QUESTIONS[1]!.text,
      opcoes: QUESTIONS[1]!.options,
      certa: 0,
      verificada: true,
      tentativas: [
        { opcao: 1, correta: false, em: expect.any(String) },
        { opcao: 0, correta: true, em: expect.any(String) },
      ],
    });

    // After signing: nothing more is kept, and the signature cannot be paused.
    expectError(
      await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 }),
      "SIGNING_ALREADY_SIGNED",
    );
    expectError(await pause(token, {}), "SIGNING_ALREADY_SIGNED");
    expect(await answers(documentId)).toHaveLength(4);
    expect(await events(documentId, "document.signing_paused")).toEqual([]);

    // The staff page's signatures carry the same summary.
    const signatures = await call("GET", `/api/documents/${documentId}/signatures`, undefined, clinic);
    expect(signatures.json().items.find((s: { papel: string }) => s.papel === "paciente").compreensao).toEqual(
      compreensao,
    );

    // Sealed: evidencias.json has the summary and each try in the chain; the registry prints them;
    // the offline verifier (and so /verificar) checks them against documento.json and the chain.
    const pdf = await sealed(documentId, clinic);
    const evidence = JSON.parse(
      embeddedFiles(pdf)
        .find((f) => f.name === "evidencias.json")!
        .bytes.toString("utf8"),
    ) as Evidence;
    expect(evidence.partes.find((p) => p.papel === "paciente")!.compreensao).toEqual(compreensao);
    expect(evidence.eventos.filter((e) => e.action === "document.comprehension_answered")).toHaveLength(4);
    const file = path.join(os.tmpdir(), `comprehension-${documentId.slice(-8)}.pdf`);
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, " ");
    expect(text).toContain("Perguntas de compreensão (respostas conferidas pelo servidor)");
    expect(text).toContain("Compreensão verificada: 3 de 3, 1 nova tentativa na pergunta 2.");
    expect(text).toContain(
      "Pergunta 2: “Com febre depois do procedimento, o que fazer?” — respostas: “Esperar o retorno” (errada), “Avisar a clínica na hora” (certa).",
    );
    const report = verifySignedPdf(pdf);
    expect(report.ok, JSON.stringify(report.linhas.filter((l) => l.ok === false))).toBe(true);
    // The browser verifier says the same lines (decision 077).
    await expectBrowserParity(pdf, report);
    expect(report.linhas).toEqual(
      expect.arrayContaining([
        {
          ok: true,
          text: expect.stringMatching(
            /^As respostas de .+ às perguntas de compreensão são das perguntas do conteúdo congelado/,
          ),
        },
        { ok: null, text: `${patient.nome} — Compreensão verificada: 3 de 3, 1 nova tentativa na pergunta 2.` },
      ]),
    );
    // `npm run verify` prints the same lines; /verificar (without a code) returns them.
    const cli = execFileSync(
      process.execPath,
      [...nodeEntryArgs("src/server/cli/verify-pdf.ts"), file, "--certificado", report.certificado!.sha256],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    expect(cli).toContain(
      `✓ As respostas de ${patient.nome} às perguntas de compreensão são das perguntas do conteúdo congelado`,
    );
    expect(cli).toContain("RESULTADO: tudo confere.");
    expect(cli).toContain(`• ${patient.nome} — Compreensão verificada: 3 de 3, 1 nova tentativa na pergunta 2.`);
    const online = await ctx.app.inject({
      method: "POST",
      url: "/api/public/verify-pdf",
      payload: pdf,
      headers: { "content-type": "application/pdf" },
    });
    expect(online.statusCode, online.body.slice(0, 300)).toBe(200);
    const answerLines = report.linhas.filter((l) => /compreensão|Pergunta \d/i.test(l.text));
    expect(answerLines).toHaveLength(5);
    expect(online.json().evidencias.linhas).toEqual(expect.arrayContaining(answerLines));
  });

  it("refuses unknown questions, options out of range, a document without questions, a dead link and malformed bodies in pt-BR, keeping nothing", async () => {
    const { documentId, token, sha } = await sent(clinic, versionId);
    expectError(
      await answer(token, { conteudo_sha256: sha, pergunta_id: "nao-existe", opcao: 0 }),
      "COMPREHENSION_UNKNOWN_QUESTION",
    );
    expectError(
      await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 2 }),
      "COMPREHENSION_OPTION_INVALID",
    );
    expectError(
      await answer(token, { conteudo_sha256: sha, pergunta_id: "resultado", opcao: 3 }),
      "COMPREHENSION_OPTION_INVALID",
    );
    expectError(
      await answer(token, { conteudo_sha256: "0".repeat(64), pergunta_id: "alerta", opcao: 0 }),
      "COMPREHENSION_VERSION_MISMATCH",
    );
    for (const body of [
      { conteudo_sha256: sha, pergunta_id: "alerta", opcao: "0" },
      { conteudo_sha256: sha, pergunta_id: "alerta", opcao: -1 },
      { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0.5 },
      { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 51 },
      { conteudo_sha256: sha, pergunta_id: "alerta", opcao: null },
      { conteudo_sha256: sha, pergunta_id: "alerta" },
      { conteudo_sha256: sha, opcao: 0 },
      { pergunta_id: "alerta", opcao: 0 },
      { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0, correta: true },
      { conteudo_sha256: sha, pergunta_id: ["alerta"], opcao: 0 },
      { conteudo_sha256: sha, pergunta_id: "a".repeat(65), opcao: 0 },
      [{ conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 }],
    ]) {
      expectError(await answer(token, body), "VALIDATION");
    }
    expect((await answer(token, "{não é json")).statusCode).toBe(400);
    const big = await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0, x: "y".repeat(5000) });
    expect(big.statusCode).toBe(413);
    // The pause's body is checked too.
    expectError(await pause(token, { pergunta_id: "nao-existe" }), "COMPREHENSION_UNKNOWN_QUESTION");
    expectError(await pause(token, { motivo: "quero" }), "VALIDATION");
    expectError(await pause(token, { pergunta_id: 7 }), "VALIDATION");
    expect(await answers(documentId)).toEqual([]);
    expect(await events(documentId, "document.signing_paused")).toEqual([]);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(row!.compreensao_pausada_at).toBeNull();

    // A document whose template asks nothing; an unknown token.
    const plain = await sent(clinic, await publishedTemplateVersion(ctx.app, clinic));
    expect(plain.page.compreensao).toBeNull();
    expectError(
      await answer(plain.token, { conteudo_sha256: plain.sha, pergunta_id: "alerta", opcao: 0 }),
      "COMPREHENSION_NONE",
    );
    expectError(await pause(plain.token, {}), "COMPREHENSION_NONE");
    expectError(
      await answer("x".repeat(43), { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 }),
      "SIGNING_LINK_INVALID",
    );
    expectError(await pause("x".repeat(43), {}), "SIGNING_LINK_INVALID");
  });

  it(`keeps at most ${MAX_ATTEMPTS_PER_QUESTION} tries per question and link, then 429 (even for the right option)`, async () => {
    const { documentId, token, sha } = await sent(clinic, versionId);
    for (let i = 0; i < MAX_ATTEMPTS_PER_QUESTION; i++) {
      const response = await answer(token, {
        conteudo_sha256: sha,
        pergunta_id: "resultado",
        opcao: i % 2 === 0 ? 0 : 2,
      });
      if (response.statusCode !== 200) throw new Error(`try ${i + 1}: ${response.statusCode} ${response.body}`);
      expect(response.json()).toMatchObject({ correta: false, tentativas: i + 1 });
    }
    expectError(
      await answer(token, { conteudo_sha256: sha, pergunta_id: "resultado", opcao: 0 }),
      "COMPREHENSION_TOO_MANY",
    );
    expectError(
      await answer(token, { conteudo_sha256: sha, pergunta_id: "resultado", opcao: 1 }),
      "COMPREHENSION_TOO_MANY",
    );
    // The other questions still count their own tries.
    expect((await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 })).json().correta).toBe(true);
    const kept = await answers(documentId);
    expect(kept.filter((e) => (e.data as { pergunta_id: string }).pergunta_id === "resultado")).toHaveLength(
      MAX_ATTEMPTS_PER_QUESTION,
    );
    expect(kept).toHaveLength(MAX_ATTEMPTS_PER_QUESTION + 1);
    expect((await call("GET", `/api/public/sign/${token}`)).json().compreensao.respostas[0]).toEqual({
      pergunta_id: "resultado",
      verificada: false,
      tentativas: MAX_ATTEMPTS_PER_QUESTION,
    });
  });

  it("refuses answers to questions of another template version", async () => {
    const a = await sent(clinic, versionId);
    // Saving the template makes version n+1 with other questions.
    const template = (await call("GET", `/api/templates/${templateId}`, undefined, clinic)).json();
    const changed = {
      ...STRUCTURE,
      comprehension: [
        { ...QUESTIONS[0]!, text: "O resultado depende só do profissional?", options: ["Sim", "Não"], correct: 1 },
        { id: "jejum", section_id: "s2", text: "Preciso de jejum?", options: ["Sim", "Não"], correct: 0 },
      ],
    };
    const saved = await call(
      "PUT",
      `/api/templates/${templateId}`,
      {
        titulo: template.titulo,
        especialidade: template.especialidade,
        categoria: template.categoria,
        estrutura: changed,
      },
      clinic,
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const v2 = saved.json().versao_atual_id as string;
    expect(v2).not.toBe(versionId);
    const b = await sent(clinic, v2);
    expect(b.sha).not.toBe(a.sha);
    expect(b.page.documento.modelo.comprehension.map((q: { id: string }) => q.id)).toEqual(["resultado", "jejum"]);
    // A's document keeps its own frozen questions.
    expect(a.page.documento.modelo.comprehension[0].text).toBe(QUESTIONS[0]!.text);

    expectError(
      await answer(a.token, { conteudo_sha256: b.sha, pergunta_id: "resultado", opcao: 1 }),
      "COMPREHENSION_VERSION_MISMATCH",
    );
    expectError(
      await answer(b.token, { conteudo_sha256: a.sha, pergunta_id: "resultado", opcao: 1 }),
      "COMPREHENSION_VERSION_MISMATCH",
    );
    // A question only version 2 has is unknown on version 1's document, and the other way round.
    expectError(
      await answer(a.token, { conteudo_sha256: a.sha, pergunta_id: "jejum", opcao: 0 }),
      "COMPREHENSION_UNKNOWN_QUESTION",
    );
    expectError(
      await answer(b.token, { conteudo_sha256: b.sha, pergunta_id: "desistir", opcao: 1 }),
      "COMPREHENSION_UNKNOWN_QUESTION",
    );
    // Option 2 exists in version 1's question, not in version 2's.
    expectError(
      await answer(b.token, { conteudo_sha256: b.sha, pergunta_id: "resultado", opcao: 2 }),
      "COMPREHENSION_OPTION_INVALID",
    );
    expect(await answers(a.documentId)).toEqual([]);
    expect(await answers(b.documentId)).toEqual([]);
    // Each is scored by its own version's right option.
    expect((await answer(a.token, { conteudo_sha256: a.sha, pergunta_id: "resultado", opcao: 1 })).json().correta).toBe(
      true,
    );
    expect((await answer(b.token, { conteudo_sha256: b.sha, pergunta_id: "resultado", opcao: 1 })).json().correta).toBe(
      true,
    );
    expect((await answer(b.token, { conteudo_sha256: b.sha, pergunta_id: "jejum", opcao: 1 })).json().correta).toBe(
      false,
    );
  });

  it("'Quero falar com o profissional' pauses the signature, notifies the responsible professional only, and a new link lifts it", async () => {
    const professional = await newStaff(ctx.app, ctx.database, clinic.tenantId, "profissional");
    const colleague = await newStaff(ctx.app, ctx.database, clinic.tenantId, "profissional");
    // A council registration: the professional is the responsible physician of what they write.
    for (const [who, numero] of [
      [professional, "771122"],
      [colleague, "771133"],
    ] as const)
      await ctx.database.db.execute(
        sql`update profiles set conselho_tipo = 'CRM', conselho_numero = ${numero}, conselho_uf = 'PE' where id = ${who.profileId}`,
      );
    const { documentId, patient, token, sha } = await sent(professional, versionId);
    const noticesOf = async (who: SignedIn) => {
      const response = await call("GET", "/api/notices?limit=50", undefined, who);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().items as { tipo: string; chave: string }[]).filter(
        (n) => n.tipo === "document.paused" && n.chave.includes(documentId),
      );
    };
    expect(await noticesOf(professional)).toEqual([]);

    expect((await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 1 })).json().correta).toBe(false);
    const paused = await pause(token, { pergunta_id: "alerta" });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json()).toEqual({ pausada: true, em: expect.any(String) });
    // Idempotent: one event, the first instant.
    expect((await pause(token, {})).json().em).toBe(paused.json().em);
    const pauses = await events(documentId, "document.signing_paused");
    expect(pauses.map((e) => e.data)).toEqual([
      expect.objectContaining({ papel: "paciente", motivo: "compreensao", pergunta_id: "alerta" }),
    ]);

    // The link says so; answering and signing are refused.
    expect((await call("GET", `/api/public/sign/${token}`)).json().compreensao.pausada).toBe(true);
    expectError(await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 }), "SIGNING_PAUSED");
    for (const q of QUESTIONS) await answer(token, { conteudo_sha256: sha, pergunta_id: q.id, opcao: q.correct });
    expect(await answers(documentId)).toHaveLength(1);
    expectError((await signAsPatient(ctx.app, ctx.database, token, patient)).response, "SIGNING_PAUSED");

    // The responsible professional (and the owner, documents audience) see the notice; a colleague
    // responsible for other documents and another clinic do not.
    expect(await noticesOf(professional)).toHaveLength(1);
    expect(await noticesOf(clinic)).toHaveLength(1);
    expect(await noticesOf(colleague)).toEqual([]);
    expect(await noticesOf(other)).toEqual([]);
    const detail = (await call("GET", `/api/documents/${documentId}`, undefined, professional)).json();
    expect(detail.compreensao_pausada_at).toBe(paused.json().em);

    // Another clinic cannot lift it, nor read the document.
    expect((await call("POST", `/api/documents/${documentId}/resend`, {}, other)).statusCode).toBe(404);
    expect((await call("GET", `/api/documents/${documentId}`, undefined, other)).statusCode).toBe(404);
    expect((await call("GET", `/api/documents/${documentId}/signatures`, undefined, other)).statusCode).toBe(404);
    const [still] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
    expect(still!.compreensao_pausada_at).not.toBeNull();

    // "Reenviar": a new link, the pause lifted, the notice gone; answers are per link.
    const resent = await call("POST", `/api/documents/${documentId}/resend`, {}, professional);
    expect(resent.statusCode, resent.body).toBe(200);
    const fresh = tokenOf(resent.json().link);
    expectError(await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 }), "SIGNING_LINK_INVALID");
    const reopened = (await call("GET", `/api/public/sign/${fresh}`)).json();
    expect(reopened.compreensao.pausada).toBe(false);
    expect(reopened.compreensao.respostas.every((r: { tentativas: number }) => r.tentativas === 0)).toBe(true);
    expect(await noticesOf(professional)).toEqual([]);
    for (const q of QUESTIONS)
      expect((await answer(fresh, { conteudo_sha256: sha, pergunta_id: q.id, opcao: q.correct })).json().correta).toBe(
        true,
      );
    const signed = await signAsPatient(ctx.app, ctx.database, fresh, patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [partySigned] = (await events(documentId, "document.party_signed")).filter(
      (e) => (e.data as { papel: string }).papel === "paciente",
    );
    // The signature's summary is this link's: one try each; the old link's wrong try stays in the chain.
    expect(
      (partySigned!.data as { compreensao: { perguntas: { tentativas: unknown[] }[] } }).compreensao.perguntas.map(
        (p) => p.tentativas.length,
      ),
    ).toEqual([1, 1, 1]);
    expect(await answers(documentId)).toHaveLength(4);
  });

  it("another clinic's link answers on its own document only; its ids reach nothing of this clinic", async () => {
    const mine = await sent(clinic, versionId);
    const theirs = await sent(other, (await questionTemplate(other)).versionId);
    expect(
      (await answer(theirs.token, { conteudo_sha256: theirs.sha, pergunta_id: "alerta", opcao: 1 })).statusCode,
    ).toBe(200);
    expect((await pause(theirs.token, {})).statusCode).toBe(200);
    expect(await answers(mine.documentId)).toEqual([]);
    expect(await events(mine.documentId, "document.signing_paused")).toEqual([]);
    const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, mine.documentId));
    expect(row!.compreensao_pausada_at).toBeNull();
    expect((await answers(theirs.documentId)).map((e) => e.tenant)).toEqual([other.tenantId]);
    expect((await events(theirs.documentId, "document.signing_paused")).map((e) => e.tenant)).toEqual([other.tenantId]);
    // Mine is still answerable; theirs is paused.
    expect(
      (await answer(mine.token, { conteudo_sha256: mine.sha, pergunta_id: "alerta", opcao: 0 })).json().correta,
    ).toBe(true);
    expectError(
      await answer(theirs.token, { conteudo_sha256: theirs.sha, pergunta_id: "alerta", opcao: 0 }),
      "SIGNING_PAUSED",
    );
    // Staff routes: this clinic cannot read or resend theirs.
    expect((await call("GET", `/api/documents/${theirs.documentId}/signatures`, undefined, clinic)).statusCode).toBe(
      404,
    );
    expect((await call("POST", `/api/documents/${theirs.documentId}/resend`, {}, clinic)).statusCode).toBe(404);
  });

  it.each([
    ["a pause", "pause"],
    ["an answer", "answer"],
  ] as const)(
    "%s racing a revocation of its link waits for the document's row and then finds the link dead",
    async (_label, what) => {
      const { documentId, token, sha } = await sent(clinic, versionId);
      const act = () =>
        what === "pause"
          ? pause(token, { pergunta_id: "alerta" })
          : answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 0 });
      expect((await answer(token, { conteudo_sha256: sha, pergunta_id: "alerta", opcao: 1 })).json().correta).toBe(
        false,
      );
      // What a resend does in its transaction: the document's row taken, the link revoked, the pause lifted.
      const revoke = [
        "select 1 from contratos where id = $1 for update",
        "update signing_tokens set revoked_at = now() where contrato_id = $1",
        "update contratos set compreensao_pausada_at = null where id = $1",
      ];
      let pausing: ReturnType<typeof act>;
      if (process.env.TEST_DB === "postgres") {
        const url = process.env.TEST_DATABASE_URL ?? "";
        const blocker = new pg.Client({ connectionString: url });
        const observer = new pg.Client({ connectionString: url });
        await Promise.all([blocker.connect(), observer.connect()]);
        try {
          await blocker.query("begin");
          for (const statement of revoke) await blocker.query(statement, [documentId]);
          pausing = act();
          // It waits for the document's row before it reads the link's state.
          await waitFor(
            `${what} esperar pela linha do documento`,
            async () => {
              const { rows } = await observer.query<{ n: number }>(
                "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> $1",
                [(blocker as unknown as { processID: number }).processID],
              );
              return (rows[0]?.n ?? 0) > 0;
            },
            20_000,
            50,
          );
          await blocker.query("commit");
        } finally {
          await blocker.end();
          await observer.end();
        }
      } else {
        // PGlite runs one transaction at a time: the revocation, then the pause.
        await ctx.database.db.transaction(async (tx) => {
          for (const statement of revoke) await tx.execute(sql.raw(statement.replace("$1", `'${documentId}'`)));
        });
        pausing = act();
      }
      expectError(await pausing, "SIGNING_LINK_INVALID");
      const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, documentId));
      expect(row!.compreensao_pausada_at).toBeNull();
      expect(await events(documentId, "document.signing_paused")).toEqual([]);
      // Only the wrong answer before the revocation is kept.
      expect(await answers(documentId)).toHaveLength(1);
    },
  );
});
