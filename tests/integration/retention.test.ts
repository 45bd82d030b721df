/**
 * Retention (Lei 13.787/2018, decision 026): a signed document and its evidence cannot be deleted
 * before 20 years from signing — the route answers a pt-BR 409 and PostgreSQL itself refuses it,
 * even to the owner role's raw SQL and inside a tenant transaction. Drafts, cancelled and
 * expired documents may be deleted, with their parties and files.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, contratoPartes, contratos, contratoTestemunhas, files } from "../../src/db/schema.js";
import { withTenant } from "../../src/db/tenant-scope.js";
import { ERRORS } from "../../src/shared/errors.js";
import { RETENTION_MESSAGES, retainedUntil } from "../../src/shared/retention/retention-rule.js";
import { databaseRefusal, type SignedDocument, signedDocument } from "../helpers/data-rights.js";
import { validCpf } from "../helpers/factories.js";
import { newClinic, newStaff, type SignedIn } from "../helpers/sessions.js";
import { draftDocument, publishedTemplateVersion, signingPatient } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;
let signed: SignedDocument;
let sealed: typeof contratos.$inferSelect;

const call = (who: SignedIn, method: "GET" | "POST" | "DELETE", url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const row = async (id: string) => (await ctx.database.db.select().from(contratos).where(eq(contratos.id, id)))[0];
const db = () => ctx.database.db;
const RETENTION = /Lei 13\.787\/2018/;

async function draftFor(who: SignedIn, version: string): Promise<string> {
  const patient = await signingPatient(ctx.app, who, { nome: "Rita de Cássia Moura" });
  return draftDocument(ctx.app, who, version, patient.id);
}

beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
  signed = await signedDocument(ctx.app, ctx.database, clinic, { versionId });
  sealed = (await row(signed.documentId))!;
  expect(sealed.status).toBe("signed");
  expect(sealed.signed_pdf_file_id).toBeTruthy();
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe("DELETE /api/documents/:id on a signed document", () => {
  it("answers 409 DOCUMENT_RETAINED in Portuguese, with the law and the date it may go", async () => {
    const response = await call(clinic, "DELETE", `/api/documents/${signed.documentId}`);
    expect(response.statusCode).toBe(409);
    const until = retainedUntil(sealed.signed_at!);
    expect(response.json()).toMatchObject({
      code: "DOCUMENT_RETAINED",
      message: RETENTION_MESSAGES.documentRetained(until),
      details: { guardar_ate: until.toISOString() },
    });
    expect(response.json().message).toMatch(RETENTION);
    expect(await row(signed.documentId)).toBeDefined();
  });
});

describe("the database refuses, whoever asks", () => {
  it("refuses the owner role's raw DELETE of the signed document", async () => {
    const refusal = await databaseRefusal(db().execute(sql`delete from contratos where id = ${signed.documentId}`));
    expect(refusal.message).toMatch(RETENTION);
    expect(refusal.code).toBe("23001");
    expect(refusal.constraint).toBe("document_retention");
    expect(await row(signed.documentId)).toBeDefined();
  });

  it("refuses deleting its parties, its witnesses, its sealed PDF and signature files", async () => {
    const partes = await db().select().from(contratoPartes).where(eq(contratoPartes.contrato_id, signed.documentId));
    expect(partes.length).toBeGreaterThanOrEqual(2); // the professional and the patient
    expect(
      (await databaseRefusal(db().execute(sql`delete from contrato_partes where contrato_id = ${signed.documentId}`)))
        .message,
    ).toMatch(RETENTION);
    expect(
      (
        await databaseRefusal(
          db().execute(sql`update contrato_partes set nome = 'Outra Pessoa' where contrato_id = ${signed.documentId}`),
        )
      ).message,
    ).toMatch(RETENTION);
    const [witness] = await db()
      .insert(contratoTestemunhas)
      .values({
        tenant_id: clinic.tenantId,
        contrato_id: signed.documentId,
        ordem: 1,
        nome: "Testemunha Registrada",
        cpf: validCpf(),
      })
      .returning({ id: contratoTestemunhas.id });
    expect(
      (await databaseRefusal(db().execute(sql`delete from contrato_testemunhas where id = ${witness!.id}`))).message,
    ).toMatch(RETENTION);
    expect(
      (await databaseRefusal(db().execute(sql`delete from files where id = ${sealed.signed_pdf_file_id}`))).message,
    ).toMatch(RETENTION);
    expect(
      (
        await databaseRefusal(
          db().execute(sql`update files set sha256 = ${"f".repeat(64)} where id = ${sealed.signed_pdf_file_id}`),
        )
      ).message,
    ).toMatch(RETENTION);
    const drawn = partes.find((p) => p.assinatura_file_id)?.assinatura_file_id;
    expect(drawn).toBeTruthy();
    expect((await databaseRefusal(db().execute(sql`delete from files where id = ${drawn}`))).message).toMatch(
      RETENTION,
    );
    expect(
      await db().select().from(contratoPartes).where(eq(contratoPartes.contrato_id, signed.documentId)),
    ).toHaveLength(partes.length);
  });

  it("refuses TRUNCATE while any document is retained", async () => {
    for (const table of ["contratos", "contrato_partes", "contrato_testemunhas", "files"]) {
      expect((await databaseRefusal(db().execute(sql.raw(`truncate table ${table} cascade`)))).message, table).toMatch(
        RETENTION,
      );
    }
    expect(await row(signed.documentId)).toBeDefined();
  });

  it("refuses an UPDATE that would make it deletable, or change what was signed", async () => {
    const attempts = [
      sql`update contratos set status = 'draft' where id = ${signed.documentId}`,
      sql`update contratos set status = 'cancelled' where id = ${signed.documentId}`,
      sql`update contratos set signed_at = now() - interval '25 years' where id = ${signed.documentId}`,
      sql`update contratos set documento = '{}'::jsonb where id = ${signed.documentId}`,
      sql`update contratos set signed_pdf_file_id = null where id = ${signed.documentId}`,
      sql`update contratos set verification_code = null where id = ${signed.documentId}`,
    ];
    for (const attempt of attempts) expect((await databaseRefusal(db().execute(attempt))).message).toMatch(RETENTION);
    const after = (await row(signed.documentId))!;
    expect(after).toMatchObject({
      status: "signed",
      signed_pdf_file_id: sealed.signed_pdf_file_id,
      verification_code: sealed.verification_code,
    });
    expect(after.signed_at?.toISOString()).toBe(sealed.signed_at?.toISOString());
    // Changes that keep it retained (ageing it by days, as other tests do; touching updated_at) still work.
    await db().execute(sql`update contratos set updated_at = now() where id = ${signed.documentId}`);
  });

  it("refuses inside a clinic transaction too (the app's role, under row-level security)", async () => {
    const refusal = await databaseRefusal(
      withTenant(db(), clinic.tenantId, (tx) => tx.delete(contratos).where(eq(contratos.id, signed.documentId))),
    );
    expect(refusal.message).toMatch(RETENTION);
  });

  it("lets a document signed more than 20 years ago go, through the route, with its parties", async () => {
    // Signed 20 years and a day ago: written as one change from a draft (never retained), since
    // moving a retained document's signing time back is refused.
    const id = await draftFor(clinic, versionId);
    await db().execute(
      sql`update contratos set status = 'signed', signed_at = now() - interval '20 years 1 day' where id = ${id}`,
    );
    expect(await db().select().from(contratoPartes).where(eq(contratoPartes.contrato_id, id))).toHaveLength(1);
    const response = await call(clinic, "DELETE", `/api/documents/${id}`);
    expect(response.statusCode, response.body).toBe(204);
    expect(await row(id)).toBeUndefined();
    expect(await db().select().from(contratoPartes).where(eq(contratoPartes.contrato_id, id))).toHaveLength(0);
  });
});

describe("what may be deleted", () => {
  it("deletes a draft the professional already signed, with that declaration and its PDF (was a 500)", async () => {
    const id = await draftFor(clinic, versionId);
    const before = (await row(id))!;
    expect(before.pdf_file_id).toBeTruthy();
    expect(await db().select().from(contratoPartes).where(eq(contratoPartes.contrato_id, id))).toHaveLength(1);
    const response = await call(clinic, "DELETE", `/api/documents/${id}`);
    expect(response.statusCode, response.body).toBe(204);
    expect(await row(id)).toBeUndefined();
    expect(await db().select().from(contratoPartes).where(eq(contratoPartes.contrato_id, id))).toHaveLength(0);
    expect(await db().select().from(files).where(eq(files.id, before.pdf_file_id!))).toHaveLength(0);
    const [event] = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_id, id), eq(auditEvents.action, "document.deleted")));
    expect(event?.data).toMatchObject({ status: "draft", paciente_id: before.paciente_id });
  });

  it("deletes cancelled and expired documents; a sent one must be cancelled first", async () => {
    const sentId = await draftFor(clinic, versionId);
    expect((await call(clinic, "POST", `/api/documents/${sentId}/send`, {})).statusCode).toBe(200);
    const refused = await call(clinic, "DELETE", `/api/documents/${sentId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: "DOCUMENT_NOT_DELETABLE",
      message: ERRORS.DOCUMENT_NOT_DELETABLE.message,
    });
    expect(
      (await call(clinic, "POST", `/api/documents/${sentId}/cancel`, { motivo: "Paciente desistiu" })).statusCode,
    ).toBe(204);
    expect((await call(clinic, "DELETE", `/api/documents/${sentId}`)).statusCode).toBe(204);
    expect(await row(sentId)).toBeUndefined();

    const expiredId = await draftFor(clinic, versionId);
    await db().update(contratos).set({ status: "expired" }).where(eq(contratos.id, expiredId));
    expect((await call(clinic, "DELETE", `/api/documents/${expiredId}`)).statusCode).toBe(204);
  });

  it("answers another clinic's document with 404, a reader with 403, a malformed id with 400", async () => {
    const otherVersion = await publishedTemplateVersion(ctx.app, other);
    const theirs = await draftFor(other, otherVersion);
    expect((await call(clinic, "DELETE", `/api/documents/${theirs}`)).statusCode).toBe(404);
    expect(await row(theirs)).toBeDefined();
    const auditor = await newStaff(ctx.app, ctx.database, clinic.tenantId, "auditor");
    const mine = await draftFor(clinic, versionId);
    expect((await call(auditor, "DELETE", `/api/documents/${mine}`)).statusCode).toBe(403);
    const malformed = await call(clinic, "DELETE", "/api/documents/nao-e-um-id");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe("VALIDATION");
  });
});
