/**
 * Audio consent (decision 069) through the public and staff routes: the recording is sniffed and
 * bounded on the server (not audio, too big, too long, too many, after signing, dead link: pt-BR
 * 4xx, nothing kept), sealed at rest, its SHA-256 and length in the signature's event,
 * evidencias.json and the printed registry; staff play it through a tenant-scoped, role-checked
 * route, each play in the trail; the database keeps it as long as the document.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoPartes, contratos, files } from "../../src/db/schema.js";
import { READING_NOT_SENT } from "../../src/shared/verification/comprehension-reading-lines.js";
import { embeddedFiles } from "../../src/server/services/sealing/pdf-embedded-files.js";
import { formatSignedPdfReport, verifySignedPdf } from "../../src/server/services/sealing/verify-signed-pdf.js";
import { expectBrowserParity } from "../helpers/browser-parity.js";
import { AUDIO_MAX_UPLOADS } from "../../src/shared/audio/audio-consent.js";
import { ERRORS } from "../../src/shared/errors.js";
import type { Evidence } from "../../src/shared/evidence/evidence.js";
import { oggOpusFile, wavFile, webmFile } from "../helpers/audio-files.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signAsPatient, signingPatient, tokenOf } from "../helpers/signing.js";
import { entryText, unzipEntries } from "../helpers/data-rights.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, who?: SignedIn) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: who ? { cookie: who.cookie } : {} });
const upload = (token: string, bytes: Buffer | string, contentType = "audio/webm", duracao = "12000") =>
  ctx.app.inject({
    method: "POST",
    url: `/api/public/sign/${token}/audio${duracao === "" ? "" : `?duracao_ms=${duracao}`}`,
    payload: bytes,
    headers: { "content-type": contentType },
  });
const expectError = (response: { statusCode: number; body: string; json(): any }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json().code).toBe(code);
  expect(response.json().message).toMatch(/[a-zà-ú]/);
};
const events = (documentId: string, action: string) =>
  ctx.database.db
    .select({ data: auditEvents.data, actor: auditEvents.actor_profile_id })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entity_type, "contrato"),
        eq(auditEvents.entity_id, documentId),
        eq(auditEvents.action, action),
      ),
    )
    .orderBy(asc(auditEvents.seq));

/** A document for a new patient, asking for the audio or not, sent. */
async function sent(who: SignedIn, pedirAudio: boolean) {
  const patient = await signingPatient(ctx.app, who);
  const created = await call(
    "POST",
    "/api/documents",
    {
      paciente_id: patient.id,
      template_version_id: versionId,
      titulo: "TCLE para teleconsulta",
      procedimento: "Teleconsulta",
      data_procedimento: "2026-12-03",
      medico_responsavel_id: who.profileId,
      variaveis: { riscos_personalizados: "Nenhum" },
      permitir_pendencias: true,
      pedir_audio: pedirAudio,
    },
    who,
  );
  expect(created.statusCode, created.body).toBe(201);
  const documentId = created.json().id as string;
  expect(
    (await call("POST", `/api/documents/${documentId}/professional-signature`, { senha: who.password }, who))
      .statusCode,
  ).toBe(200);
  const response = await call("POST", `/api/documents/${documentId}/send`, {}, who);
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient, token: tokenOf(response.json().link) };
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
  for (const who of [clinic, other])
    expect((await call("PUT", "/api/settings/signing", { codigo_email: false }, who)).statusCode).toBe(200);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

describe("audio consent (decision 069)", () => {
  it("keeps a sniffed, sealed recording with the signature; evidence, registry and the staff player carry it", async () => {
    const { documentId, patient, token } = await sent(clinic, true);
    const page = (await call("GET", `/api/public/sign/${token}`)).json();
    expect(page.audio).toMatchObject({
      frase: expect.stringContaining(patient.nome),
      max_ms: 180_000,
      max_bytes: 3 * 1024 * 1024,
      envios: 0,
      gravacao: null,
    });

    // Hostile uploads: each a pt-BR 4xx, nothing kept.
    expectError(await upload(token, Buffer.from("%PDF-1.7\n%%EOF\n")), "AUDIO_NOT_AUDIO");
    expectError(await upload(token, "<script>alert(1)</script>", "text/plain"), "AUDIO_NOT_AUDIO");
    expectError(await upload(token, webmFile(10, "video")), "AUDIO_NOT_AUDIO");
    expectError(await upload(token, '{"a":1}', "application/json"), "AUDIO_NOT_AUDIO");
    expectError(await upload(token, wavFile(400)), "AUDIO_TOO_BIG");
    expectError(await upload(token, oggOpusFile(200), "audio/ogg"), "AUDIO_TOO_LONG");
    expectError(await upload(token, webmFile(10), "audio/webm", "250000"), "AUDIO_TOO_LONG");
    expectError(await upload(token, wavFile(0.4), "audio/wav", "400"), "AUDIO_TOO_SHORT");
    for (const duracao of ["", "abc", "-5", "1.5"]) {
      const bad = await upload(token, webmFile(10), "audio/webm", duracao);
      expect(bad.statusCode, `${duracao}: ${bad.body}`).toBe(400);
      expect(bad.json().message).toMatch(/[a-zà-ú]/);
    }
    expect(await events(documentId, "document.audio_recorded")).toEqual([]);

    // A first take, then a redo (the declared type is not trusted: the bytes say Ogg).
    expect((await upload(token, webmFile(20), "audio/webm;codecs=opus", "21000")).statusCode).toBe(200);
    const take = oggOpusFile(12);
    const kept = await upload(token, take, "application/octet-stream", "12300");
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toEqual({
      gravado: true,
      sha256: sha256(take),
      duracao_ms: 12_000,
      envios: 2,
      max_envios: AUDIO_MAX_UPLOADS,
    });
    expect((await call("GET", `/api/public/sign/${token}`)).json().audio.gravacao).toEqual({
      duracao_ms: 12_000,
      sha256: sha256(take),
    });

    // Sealed at rest: the stored bytes are not the recording.
    const recorded = (await events(documentId, "document.audio_recorded")).map((e) => e.data as any);
    expect(recorded.map((d) => [d.tentativa, d.mime, d.duracao_ms])).toEqual([
      [1, "audio/webm", 21_000],
      [2, "audio/ogg", 12_000],
    ]);
    const [fileRow] = await ctx.database.db.select().from(files).where(eq(files.id, recorded[1].file_id));
    const stored = await ctx.app.services.storage.get(fileRow!.sha256);
    expect(stored).not.toBeNull();
    expect(stored!.includes(Buffer.from("OpusHead"))).toBe(false);
    expect(fileRow!.sha256).not.toBe(sha256(take));

    const signed = await signAsPatient(ctx.app, ctx.database, token, patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [party] = (await events(documentId, "document.party_signed")).filter(
      (e) => (e.data as { papel: string }).papel === "paciente",
    );
    expect((party!.data as any).audio).toMatchObject({
      pedido: true,
      gravado: true,
      sha256: sha256(take),
      duracao_ms: 12_000,
      mime: "audio/ogg",
    });

    // After signing: refused, nothing more kept.
    expectError(await upload(token, oggOpusFile(5), "audio/ogg"), "SIGNING_ALREADY_SIGNED");
    expect(await events(documentId, "document.audio_recorded")).toHaveLength(2);

    // The staff player: the recording as made; each play audited with who played it.
    const signatures = (await call("GET", `/api/documents/${documentId}/signatures`, undefined, clinic)).json().items;
    const patientSignature = signatures.find((s: { papel: string }) => s.papel === "paciente");
    expect(patientSignature.audio).toMatchObject({ gravado: true, sha256: sha256(take), duracao_ms: 12_000 });
    const audioUrl = `/api/documents/${documentId}/parties/${patientSignature.parte_id}/audio`;
    const played = await call("GET", audioUrl, undefined, clinic);
    expect(played.statusCode).toBe(200);
    expect(played.headers["content-type"]).toBe("audio/ogg");
    expect(sha256(played.rawPayload)).toBe(sha256(take));
    await call("GET", audioUrl, undefined, clinic);
    const plays = await events(documentId, "document.audio_played");
    expect(plays).toHaveLength(2);
    expect(plays[0]).toMatchObject({ actor: clinic.profileId, data: { sha256: sha256(take) } });

    // Another clinic: 404 with this clinic's ids; the front desk may not play it (403); a party of
    // the document without audio (the professional's): 404.
    expectError(await call("GET", audioUrl, undefined, other), "NOT_FOUND");
    const frontDesk = await newStaff(ctx.app, ctx.database, clinic.tenantId, "atendente");
    expectError(await call("GET", audioUrl, undefined, frontDesk), "FORBIDDEN");
    const professional = signatures.find((s: { papel: string }) => s.papel === "profissional");
    expectError(
      await call("GET", `/api/documents/${documentId}/parties/${professional.parte_id}/audio`, undefined, clinic),
      "AUDIO_NOT_FOUND",
    );
    expect(
      (await call("GET", `/api/documents/${documentId}/parties/nao-e-id/audio`, undefined, clinic)).statusCode,
    ).toBe(400);
    expect(await events(documentId, "document.audio_played")).toHaveLength(2);

    // Kept as long as the document: the database refuses to delete its file row.
    await expect(ctx.database.db.delete(files).where(eq(files.id, recorded[1].file_id))).rejects.toThrow();
    const [partyRow] = await ctx.database.db
      .select({ audio: contratoPartes.audio_file_id })
      .from(contratoPartes)
      .where(eq(contratoPartes.id, patientSignature.parte_id));
    expect(partyRow!.audio).toBe(recorded[1].file_id);

    // Sealed: evidencias.json and the registry page carry the hash and the length.
    const pdf = await sealed(documentId, clinic);
    const evidence = JSON.parse(
      embeddedFiles(pdf)
        .find((f) => f.name === "evidencias.json")!
        .bytes.toString("utf8"),
    ) as Evidence;
    expect(evidence.partes.find((p) => p.papel === "paciente")!.audio).toMatchObject({
      sha256: sha256(take),
      duracao_ms: 12_000,
    });
    expect(evidence.eventos.filter((e) => e.action === "document.audio_recorded")).toHaveLength(2);
    const file = path.join(os.tmpdir(), `audio-${documentId.slice(-8)}.pdf`);
    writeFileSync(file, pdf);
    const text = execFileSync("pdftotext", [file, "-"]).toString("utf8").replace(/\s+/g, "");
    expect(text).toContain(`Áudiodoaceite:SHA-256${sha256(take)},0min12s.`);

    // The offline verifier (npm run verify, /verificar) checks the audio against the sealed chain
    // and lists it; the patient's page sent no reading record here, and the report says so.
    const report = verifySignedPdf(pdf);
    expect(report.ok, JSON.stringify(report.linhas.filter((l) => l.ok === false))).toBe(true);
    // The browser verifier says the same lines (decision 077).
    await expectBrowserParity(pdf, report);
    const nome = evidence.partes.find((p) => p.papel === "paciente")!.nome;
    expect(report.linhas).toEqual(
      expect.arrayContaining([
        {
          ok: true,
          text: `O áudio do aceite de ${nome} é o da sua assinatura registrada na cadeia de eventos, e uma gravação com esse SHA-256, duração e formato foi registrada na cadeia ao ser recebida.`,
        },
        { ok: null, text: `${nome} — Áudio do aceite: SHA-256 ${sha256(take)}, 0 min 12 s.` },
        { ok: null, text: expect.stringMatching(new RegExp(`^${nome} — Gravação: formato audio/ogg, `)) },
        { ok: null, text: `${nome} — ${READING_NOT_SENT}` },
      ]),
    );
    // As `npm run verify` prints it.
    const printed = formatSignedPdfReport(report, "assinado.pdf");
    expect(printed).toContain(`• ${nome} — Áudio do aceite: SHA-256 ${sha256(take)}, 0 min 12 s.`);
    expect(printed).toContain(`• ${nome} — Registro de leitura: não enviado pelo aparelho do signatário`);

    // The patient's export (LGPD art. 18): the recording itself, opened, beside its document.
    const zip = unzipEntries((await call("GET", `/api/patients/${patient.id}/export`, undefined, clinic)).rawPayload);
    const index = JSON.parse(entryText(zip, "documentos.json")) as {
      id: string;
      audios_do_aceite: { papel: string; arquivo: string | null; sha256: string | null }[];
    }[];
    const [exported] = index.find((d) => d.id === documentId)!.audios_do_aceite;
    expect(exported).toMatchObject({ papel: "paciente", sha256: sha256(take) });
    expect(exported!.arquivo).toMatch(/_audio-do-aceite_1\.ogg$/);
    expect(sha256(Buffer.from(zip[exported!.arquivo!]!))).toBe(sha256(take));
    // The clinic's export: the recording opened too (playable without this server), not its sealed bytes.
    const clinicZip = unzipEntries((await call("GET", "/api/settings/export", undefined, clinic)).rawPayload);
    const audioEntries = Object.keys(clinicZip).filter((name) => /^arquivos\/[0-9a-f]{64}\.ogg$/.test(name));
    expect(audioEntries.map((name) => sha256(Buffer.from(clinicZip[name]!)))).toContain(sha256(take));
  });

  it("signs without a recording when asked (the evidence says so), and refuses uploads the document did not ask for", async () => {
    const asked = await sent(clinic, true);
    const signed = await signAsPatient(ctx.app, ctx.database, asked.token, asked.patient);
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [party] = (await events(asked.documentId, "document.party_signed")).filter(
      (e) => (e.data as { papel: string }).papel === "paciente",
    );
    expect((party!.data as any).audio).toEqual({ pedido: true, gravado: false });
    const report = verifySignedPdf(await sealed(asked.documentId, clinic));
    expect(report.ok, JSON.stringify(report.linhas.filter((l) => l.ok === false))).toBe(true);
    expect(report.linhas).toContainEqual({
      ok: null,
      text: `${asked.patient.nome} — Áudio do aceite: pedido pela clínica, não gravado (o signatário assinou sem gravar).`,
    });

    const plain = await sent(clinic, false);
    expect((await call("GET", `/api/public/sign/${plain.token}`)).json().audio).toBeNull();
    expectError(await upload(plain.token, oggOpusFile(5), "audio/ogg"), "AUDIO_NOT_REQUESTED");
    const plainSigned = await signAsPatient(ctx.app, ctx.database, plain.token, plain.patient);
    expect(plainSigned.response.statusCode).toBe(200);
    const [plainParty] = (await events(plain.documentId, "document.party_signed")).filter(
      (e) => (e.data as { papel: string }).papel === "paciente",
    );
    expect((plainParty!.data as any).audio).toBeUndefined();
  });

  it("bounds the redos per link, and answers a dead or revoked link with 410", async () => {
    const { documentId, token } = await sent(clinic, true);
    for (let i = 0; i < AUDIO_MAX_UPLOADS; i++)
      expect((await upload(token, oggOpusFile(3 + i), "audio/ogg")).statusCode).toBe(200);
    expectError(await upload(token, oggOpusFile(3), "audio/ogg"), "AUDIO_TOO_MANY");
    expect(await events(documentId, "document.audio_recorded")).toHaveLength(AUDIO_MAX_UPLOADS);

    expectError(await upload("x".repeat(43), oggOpusFile(3), "audio/ogg"), "SIGNING_LINK_INVALID");
    expectError(await upload("curto", oggOpusFile(3), "audio/ogg"), "SIGNING_LINK_INVALID");
    // Reenviar revokes the link: the old one takes no recording.
    const second = await sent(clinic, true);
    expect((await call("POST", `/api/documents/${second.documentId}/resend`, {}, clinic)).statusCode).toBe(200);
    expectError(await upload(second.token, oggOpusFile(3), "audio/ogg"), "SIGNING_LINK_INVALID");
  });
});
