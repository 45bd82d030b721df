import { and, eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificados, contratos, emailOutbox, noticeUserStates, systemNotices } from "../../src/db/schema.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { recordSystemNotice } from "../../src/server/services/notices/record-system-notice.js";
import type { Notice } from "../../src/shared/notices/notice-schemas.js";
import { FAKE_FEEGOW_TOKEN, type FakeFeegowServer, startFakeFeegowServer } from "../fakes/feegow-server.js";
import { EVENT_DEADLINE_MS, listenForStreams, openEventStream } from "../helpers/event-stream.js";
import { validCertificateUpload } from "../helpers/probes.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * Avisos (with the Feegow statuses; decision 028): notices derived from the
 * documents, the outbox, Feegow uploads and certificates, plus stored system notices — each for
 * the roles it concerns, never another clinic's; read marks per user; the unread count.
 */
let fake: FakeFeegowServer;
let ctx: TestContext;
let owner: SignedIn;
let admin: SignedIn;
let atendente: SignedIn;
let profissional: SignedIn;
let auditor: SignedIn;
let versionId: string;

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** Rows the notices of clinic A are about. */
const ids = {} as Record<
  | "viewed"
  | "viewedPro"
  | "expiring"
  | "signed"
  | "upload"
  | "uploadDoc"
  | "email"
  | "clinicCert"
  | "proCert"
  | "system",
  string
>;

function call(
  who: SignedIn | null,
  method: "GET" | "POST" | "PUT",
  url: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: who ? { cookie: who.cookie } : {},
  });
}

/** Every notice of `who`, walking the pages. */
async function allNotices(who: SignedIn, limit = 50): Promise<Notice[]> {
  const out: Notice[] = [];
  let cursor: string | null = null;
  do {
    const response = await call(
      who,
      "GET",
      `/api/notices?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as { items: Notice[]; next_cursor: string | null };
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

/** "kind row" for each notice, the row being the entity the key names. */
const shown = (notices: Notice[]) => notices.map((n) => `${n.tipo} ${n.chave.split(":")[1]}`).sort();
const unread = async (who: SignedIn) => {
  const response = await call(who, "GET", "/api/notices/unread-count");
  expect(response.statusCode, response.body).toBe(200);
  return response.json().nao_lidos as number;
};
const markRead = (who: SignedIn, body: unknown) => call(who, "POST", "/api/notices/read", body);

async function sendDocument(
  who: SignedIn,
  nome: string,
): Promise<{ documentId: string; token: string; patient: Awaited<ReturnType<typeof signableDocument>>["patient"] }> {
  const { documentId, patient } = await signableDocument(ctx.app, who, { versionId, nome });
  const sent = await call(who, "POST", `/api/documents/${documentId}/send`, {});
  expect(sent.statusCode, sent.body).toBe(200);
  return { documentId, token: tokenOf(sent.json().link as string), patient };
}

async function viewedDocument(who: SignedIn, nome: string): Promise<string> {
  const { documentId, token } = await sendDocument(who, nome);
  expect((await ctx.app.inject({ method: "GET", url: `/api/public/sign/${token}` })).statusCode).toBe(200);
  return documentId;
}

/** A failed Feegow upload (a patient Feegow does not know): the real job against the fake. */
async function failedUpload(who: SignedIn): Promise<{ uploadId: string; documentId: string }> {
  const { documentId } = await signableDocument(ctx.app, who, { versionId, nome: "Otávio Brandão Leite" });
  const queued = await call(who, "POST", `/api/documents/${documentId}/feegow-upload`);
  expect(queued.statusCode, queued.body).toBe(202);
  const uploadId = queued.json().upload.id as string;
  await ctx.app.worker.tick({ sweep: false });
  const [upload] = (await call(who, "GET", `/api/documents/${documentId}/feegow-uploads`)).json().items;
  expect(upload).toMatchObject({ id: uploadId, status: "falhou" });
  return { uploadId, documentId };
}

beforeAll(async () => {
  fake = await startFakeFeegowServer();
  ctx = await createTestApp({ env: { FEEGOW_URL: fake.url, FEEGOW_TIMEOUT_MS: "800" } });
  owner = await newClinic(ctx.app);
  admin = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
  atendente = await newStaff(ctx.app, ctx.database, owner.tenantId, "atendente");
  profissional = await newStaff(ctx.app, ctx.database, owner.tenantId, "profissional");
  auditor = await newStaff(ctx.app, ctx.database, owner.tenantId, "auditor");
  versionId = await publishedTemplateVersion(ctx.app, owner);
  expect((await call(owner, "PUT", "/api/integration/feegow", { token: FAKE_FEEGOW_TOKEN })).statusCode).toBe(200);
  expect((await call(owner, "POST", "/api/integration/feegow/test")).statusCode).toBe(200);
  const db = ctx.database.db;

  // Documents: viewed (the owner's, and one the profissional answers for), about to expire, signed.
  ids.viewed = await viewedDocument(owner, "Ana Luíza Conceição");
  ids.viewedPro = await viewedDocument(owner, "Bruno Teixeira Lima");
  await db
    .update(contratos)
    .set({ medico_responsavel_id: profissional.profileId })
    .where(eq(contratos.id, ids.viewedPro));
  ids.expiring = (await sendDocument(owner, "Carla Menezes Rocha")).documentId;
  await db
    .update(contratos)
    .set({ expiracao_at: new Date(Date.now() + 10 * HOUR) })
    .where(eq(contratos.id, ids.expiring));
  const toSign = await sendDocument(owner, "Daniel Prado Alves");
  expect((await signAsPatient(ctx.app, ctx.database, toSign.token, toSign.patient)).response.statusCode).toBe(200);
  ids.signed = toSign.documentId;
  // Sealed before the upload switch is on: only the upload below fails.
  await ctx.app.worker.tick({ sweep: false });
  expect(
    (await call(owner, "PUT", "/api/integration/feegow", { integrations: { file_upload: true } })).statusCode,
  ).toBe(200);

  // A failed upload to Feegow.
  const failed = await failedUpload(owner);
  ids.upload = failed.uploadId;
  ids.uploadDoc = failed.documentId;

  // An e-mail the worker gave up on (8 failed attempts).
  const attempts = Array.from({ length: 8 }, (_, i) => ({
    at: new Date(Date.now() - (8 - i) * HOUR).toISOString(),
    error: "550 mailbox unavailable",
  }));
  const [email] = await db
    .insert(emailOutbox)
    .values({
      tenant_id: owner.tenantId,
      to_address: "ana@exemplo.com.br",
      subject: "Documento para assinatura",
      text_body: "…",
      status: "failed",
      attempts,
    })
    .returning({ id: emailOutbox.id });
  ids.email = email!.id;

  // The clinic's certificate expiring in 10 days; the profissional's own e-CPF, expired.
  const upload = await call(owner, "POST", "/api/certificates", await validCertificateUpload());
  expect(upload.statusCode, upload.body).toBe(201);
  ids.clinicCert = upload.json().certificado.id as string;
  await db
    .update(certificados)
    .set({ vence_em: new Date(Date.now() + 10 * DAY) })
    .where(eq(certificados.id, ids.clinicCert));
  const [clinicCert] = await db.select().from(certificados).where(eq(certificados.id, ids.clinicCert));
  const { id: _id, ...copy } = clinicCert!;
  const [proCert] = await db
    .insert(certificados)
    .values({
      ...copy,
      owner_profile_id: profissional.profileId,
      alias: "Meu e-CPF",
      vence_em: new Date(Date.now() - 2 * DAY),
      created_at: new Date(Date.now() - 400 * DAY),
    })
    .returning({ id: certificados.id });
  ids.proCert = proCert!.id;

  // A system notice (what the backup will record when it fails).
  ids.system = await recordSystemNotice(db, owner.tenantId, {
    kind: "backup.failed",
    title: "Backup não concluído",
    body: "O backup de hoje falhou: disco cheio.",
    link: "/settings",
  });
}, 180_000);

afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

describe("Avisos: who sees what", () => {
  it("shows the owner and the administration every kind, each with its words and link", async () => {
    const everything = [
      `document.viewed ${ids.viewed}`,
      `document.viewed ${ids.viewedPro}`,
      `document.expiring ${ids.expiring}`,
      `document.signed ${ids.signed}`,
      `feegow.failed ${ids.upload}`,
      `email.failed ${ids.email}`,
      `certificate.expiring ${ids.clinicCert}`,
      `certificate.expired ${ids.proCert}`,
      `system ${ids.system}`,
    ].sort();
    for (const who of [owner, admin]) expect(shown(await allNotices(who))).toEqual(everything);

    const notices = await allNotices(owner);
    const byKind = (tipo: string, id: string) => notices.find((n) => n.tipo === tipo && n.chave.includes(id))!;
    expect(byKind("document.viewed", ids.viewed)).toMatchObject({
      titulo: "Visualizado e não assinado",
      mensagem: expect.stringMatching(
        /^Ana Luíza Conceição abriu "TCLE - Blefaroplastia" em \d{2}\/\d{2}\/\d{4} às \d{2}:\d{2} e ainda não assinou\.$/,
      ),
      link: `/documents/${ids.viewed}`,
      lido: false,
      documento_id: ids.viewed,
      envio_feegow_id: null,
    });
    expect(byKind("document.expiring", ids.expiring)).toMatchObject({
      titulo: "Vence em menos de 48 horas",
      mensagem: expect.stringContaining("vence em 9 horas"),
    });
    expect(byKind("document.signed", ids.signed)).toMatchObject({
      titulo: "Assinado desde a sua última visita",
      mensagem: expect.stringContaining('Daniel Prado Alves assinou "TCLE - Blefaroplastia"'),
    });
    expect(byKind("feegow.failed", ids.upload)).toMatchObject({
      titulo: "Falha no envio ao Feegow",
      mensagem: expect.stringContaining("Paciente não encontrado no Feegow"),
      link: `/documents/${ids.uploadDoc}`,
      documento_id: ids.uploadDoc,
      envio_feegow_id: ids.upload,
    });
    expect(byKind("email.failed", ids.email)).toMatchObject({
      titulo: "E-mail não entregue",
      mensagem: expect.stringContaining("depois de 8 tentativas: 550 mailbox unavailable"),
      link: null,
    });
    expect(byKind("certificate.expiring", ids.clinicCert)).toMatchObject({
      titulo: "Certificado vence em 10 dias",
      link: "/certificates",
    });
    expect(byKind("certificate.expired", ids.proCert)).toMatchObject({
      titulo: "Certificado vencido",
      link: "/certificates",
    });
    expect(byKind("system", ids.system)).toMatchObject({
      titulo: "Backup não concluído",
      mensagem: "O backup de hoje falhou: disco cheio.",
      link: "/settings",
    });
    // Newest first.
    const times = notices.map((n) => n.em);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("shows the front desk and auditors the clinic's documents only", async () => {
    const documents = [
      `document.viewed ${ids.viewed}`,
      `document.viewed ${ids.viewedPro}`,
      `document.expiring ${ids.expiring}`,
      `document.signed ${ids.signed}`,
    ].sort();
    expect(shown(await allNotices(atendente))).toEqual(documents);
    expect(shown(await allNotices(auditor))).toEqual(documents);
  });

  it("shows a health professional the documents they answer for and their own certificate", async () => {
    expect(shown(await allNotices(profissional))).toEqual(
      [`certificate.expired ${ids.proCert}`, `document.viewed ${ids.viewedPro}`].sort(),
    );
  });

  it("never shows another clinic's notices, nor marks them read", async () => {
    const other = await newClinic(ctx.app);
    expect(await allNotices(other)).toEqual([]);
    expect(await unread(other)).toBe(0);
    const keys = (await allNotices(owner)).map((n) => n.chave);
    for (const key of keys) {
      const answer = await markRead(other, { chaves: [key] });
      expect(answer.statusCode, key).toBe(404);
      expect(answer.json().message).toBe("Aviso não encontrado ou já resolvido. Atualize a lista de avisos.");
    }
    expect((await allNotices(owner)).every((n) => !n.lido)).toBe(true);
  });

  it("refuses keys of notices the role does not see, and a batch with any of them marks nothing", async () => {
    const all = await allNotices(owner);
    const feegowKey = all.find((n) => n.tipo === "feegow.failed")!.chave;
    const ownersViewed = all.find((n) => n.chave.includes(ids.viewed))!.chave;
    const prosViewed = all.find((n) => n.chave.includes(ids.viewedPro))!.chave;
    expect((await markRead(atendente, { chaves: [feegowKey] })).statusCode).toBe(404);
    expect((await markRead(profissional, { chaves: [prosViewed, ownersViewed] })).statusCode).toBe(404);
    expect((await allNotices(profissional)).find((n) => n.chave === prosViewed)?.lido).toBe(false);
    // A key whose state moved on (a wrong instant) is not the notice any more.
    expect((await markRead(profissional, { chaves: [prosViewed.replace(/:\d+$/, ":1")] })).statusCode).toBe(404);
  });

  it("answers 400 in Portuguese to malformed bodies, and 401 without a session", async () => {
    const key = (await allNotices(owner))[0]!.chave;
    for (const body of [
      {},
      { chaves: [] },
      { chaves: ["qualquer coisa"] },
      { chaves: [`${key}\u0000`] },
      { chaves: [key.toUpperCase()] },
      { chaves: key },
      { chaves: Array.from({ length: 101 }, () => key) },
      { todas: false },
      { todas: "sim" },
      { chaves: [key], todas: true },
      [],
      "todas",
    ]) {
      const answer = await markRead(owner, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      const { message, issues } = answer.json() as { message: string; issues?: { message: string }[] };
      for (const text of [message, ...(issues ?? []).map((issue) => issue.message)]) {
        expect(text, JSON.stringify(body)).not.toMatch(/\b(Invalid|expected|received|Required|must be|Bad Request)\b/);
        expect(text.length).toBeGreaterThan(5);
      }
    }
    for (const query of ["limit=0", "limit=51", "limit=abc", "cursor=%%%", "cursor=bmFvLWUtdW0tY3Vyc29y"]) {
      expect((await call(owner, "GET", `/api/notices?${query}`)).statusCode, query).toBe(400);
    }
    expect((await call(null, "GET", "/api/notices")).statusCode).toBe(401);
    expect((await call(null, "GET", "/api/notices/unread-count")).statusCode).toBe(401);
    expect((await call(null, "POST", "/api/notices/read", { todas: true })).statusCode).toBe(401);
  });

  it("walks the pages newest first without repeating or skipping a notice", async () => {
    const whole = await allNotices(admin, 50);
    const paged = await allNotices(admin, 2);
    expect(paged.map((n) => n.chave)).toEqual(whole.map((n) => n.chave));
    expect(new Set(paged.map((n) => n.chave)).size).toBe(paged.length);
  });
});

describe("Avisos: read marks and the unread count", () => {
  it("counts down as notices are read, to zero with 'todas', and up again with a new event", async () => {
    const user = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    const notices = await allNotices(user);
    expect(await unread(user)).toBe(notices.length);
    const first = notices[0]!;

    const marked = await markRead(user, { chaves: [first.chave] });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ nao_lidos: notices.length - 1 });
    expect(await unread(user)).toBe(notices.length - 1);
    expect((await allNotices(user)).find((n) => n.chave === first.chave)?.lido).toBe(true);
    // Marking it again changes nothing; another user's marks are their own.
    expect((await markRead(user, { chaves: [first.chave] })).json()).toEqual({ nao_lidos: notices.length - 1 });
    expect(await unread(owner)).toBe(notices.length);

    const all = await markRead(user, { todas: true });
    expect(all.json()).toEqual({ nao_lidos: 0 });
    expect(await unread(user)).toBe(0);
    expect((await allNotices(user)).every((n) => n.lido)).toBe(true);

    // A new event: a system notice for the owner and administration, not the front desk.
    const before = await unread(atendente);
    await recordSystemNotice(ctx.database.db, owner.tenantId, {
      kind: "export.failed",
      title: "Exportação falhou",
      body: "Tente de novo mais tarde.",
    });
    expect(await unread(user)).toBe(1);
    expect(await unread(atendente)).toBe(before);
    // A document viewed now reaches the front desk too.
    await viewedDocument(owner, "Elisa Fonseca Ramos");
    expect(await unread(user)).toBe(2);
    expect(await unread(atendente)).toBe(before + 1);
  });

  it("makes a new failure of the same upload a new, unread notice; 'Tentar de novo' takes the old one away", async () => {
    const user = await newStaff(ctx.app, ctx.database, owner.tenantId, "admin");
    const { uploadId } = await failedUpload(owner);
    const notice = (await allNotices(user)).find((n) => n.envio_feegow_id === uploadId)!;
    expect((await markRead(user, { chaves: [notice.chave] })).statusCode).toBe(200);
    expect((await allNotices(user)).find((n) => n.envio_feegow_id === uploadId)?.lido).toBe(true);

    expect((await call(owner, "POST", `/api/integration/feegow/uploads/${uploadId}/retry`)).statusCode).toBe(200);
    expect((await allNotices(user)).some((n) => n.envio_feegow_id === uploadId)).toBe(false);
    // Reading the resolved notice now is refused: it is not there any more.
    expect((await markRead(user, { chaves: [notice.chave] })).statusCode).toBe(404);

    await ctx.app.worker.tick({ sweep: false });
    const again = (await allNotices(user)).find((n) => n.envio_feegow_id === uploadId)!;
    expect(again.chave).not.toBe(notice.chave);
    expect(again.lido).toBe(false);
  });

  it("tells signatures since the last visit: the end of the visit before is where they start", async () => {
    const user = await newStaff(ctx.app, ctx.database, owner.tenantId, "atendente");
    const signedHere = (notices: Notice[]) =>
      notices.some((n) => n.tipo === "document.signed" && n.documento_id === ids.signed);
    // A first visit: the last 7 days' signatures.
    expect(signedHere(await allNotices(user))).toBe(true);
    // Signed two hours ago (the other tests are done with it).
    await ctx.database.db
      .update(contratos)
      .set({ signed_at: new Date(Date.now() - 2 * HOUR) })
      .where(eq(contratos.id, ids.signed));
    const whose = and(eq(noticeUserStates.tenant_id, owner.tenantId), eq(noticeUserStates.profile_id, user.profileId));
    // The last visit ended three hours ago, before the signature: it is news.
    await ctx.database.db
      .update(noticeUserStates)
      .set({ visit_at: new Date(Date.now() - 3 * HOUR) })
      .where(whose);
    expect(signedHere(await allNotices(user))).toBe(true);
    // Fetches within 30 minutes are the same visit: still there.
    expect(signedHere(await allNotices(user))).toBe(true);
    // A visit that ended an hour ago, after the signature, saw it: no longer news.
    await ctx.database.db
      .update(noticeUserStates)
      .set({ visit_at: new Date(Date.now() - HOUR) })
      .where(whose);
    expect(signedHere(await allNotices(user))).toBe(false);
    // The count follows the same window, without moving the visit.
    const count = await unread(user);
    expect(count).toBe((await allNotices(user)).filter((n) => !n.lido).length);
  });
});

describe("recordSystemNotice", () => {
  it("records in the caller's transaction (nothing when it rolls back) and refuses bad input", async () => {
    const clinic = await newClinic(ctx.app);
    await expect(
      withTenant(ctx.database.db, clinic.tenantId, async (tx) => {
        await recordSystemNotice(tx, clinic.tenantId, { kind: "backup.failed", title: "Backup", body: "Falhou." });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await allNotices(clinic)).toEqual([]);
    for (const bad of [
      { kind: "Backup Falhou", title: "x", body: "y" },
      { kind: "backup.failed", title: "", body: "y" },
      { kind: "backup.failed", title: "x", body: "y", link: "https://evil.example" },
      { kind: "backup.failed", title: "x\u0000", body: "y" },
    ]) {
      await expect(recordSystemNotice(ctx.database.db, clinic.tenantId, bad)).rejects.toThrow();
    }
    const rows = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(systemNotices)
      .where(eq(systemNotices.tenant_id, clinic.tenantId));
    expect(rows[0]?.n).toBe(0);
  });
});

describe("Avisos on the live stream (decision 022)", () => {
  it("tells open browsers of a system notice and of a Feegow failure going away", async () => {
    const url = await listenForStreams(ctx.app);
    const stream = await openEventStream(url, admin.cookie);
    try {
      await stream.waitFor((e) => e.event === "ready", "ready");
      const id = await recordSystemNotice(ctx.database.db, owner.tenantId, {
        kind: "backup.failed",
        title: "Backup",
        body: "Falhou.",
      });
      await stream.waitFor((e) => e.event === "notice" && e.json.id === id, "system notice", EVENT_DEADLINE_MS);
      const { uploadId } = await failedUpload(owner);
      await stream.waitFor((e) => e.event === "notice" && e.json.id === uploadId, "Feegow failure", EVENT_DEADLINE_MS);
    } finally {
      stream.close();
    }
  });
});
