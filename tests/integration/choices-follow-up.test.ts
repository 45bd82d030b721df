/**
 * What decision 056 left to do, on both databases: the list's "Revogado" filter, the signed
 * page's revocation (the same checks and code as the public revoke route), the patient's own
 * export with the refusal and revocation records, and the offline verifier on a revocation
 * record. Another clinic's ids and malformed input are answered in pt-BR, nothing changed.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contratos } from "../../src/db/schema.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
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

type Method = "GET" | "POST";
const staff = (who: SignedIn, method: Method, url: string, payload?: unknown) =>
  ctx.app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
const tick = () => ctx.app.worker.tick({ sweep: false });

interface Sent {
  documentId: string;
  patient: SignablePatient;
  token: string;
}
async function sentDocument(who: SignedIn = clinic): Promise<Sent> {
  const { documentId, patient } = await signableDocument(ctx.app, who, who === clinic ? { versionId } : {});
  const response = await staff(who, "POST", `/api/documents/${documentId}/send`, {});
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient, token: tokenOf(response.json().link as string) };
}
const documentRow = async (id: string) => {
  const [row] = await ctx.database.db.select().from(contratos).where(eq(contratos.id, id));
  if (!row) throw new Error(`no document ${id}`);
  return row;
};
async function signedDocument(who: SignedIn = clinic): Promise<Sent> {
  const sent = await sentDocument(who);
  const signing = await signAsPatient(ctx.app, ctx.database, sent.token, sent.patient);
  expect(signing.response.statusCode, signing.response.body).toBe(200);
  for (let round = 0; round < 10 && !(await documentRow(sent.documentId)).signed_pdf_sha256; round++) await tick();
  expect((await documentRow(sent.documentId)).signed_pdf_sha256).toMatch(/^[0-9a-f]{64}$/);
  return sent;
}
beforeAll(async () => {
  ctx = await createTestApp({ env: { RATE_LIMIT_PUBLIC_PER_MINUTE: "100000" } });
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  versionId = await publishedTemplateVersion(ctx.app, clinic);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

describe("the documents list's Revogado filter", () => {
  it("lists only revoked consents of the session's clinic; a malformed value is a pt-BR 400", async () => {
    const revoked = await signedDocument();
    const signed = await signedDocument();
    const revocation = await staff(clinic, "POST", `/api/documents/${revoked.documentId}/revocation`, {
      meio: "telefone",
    });
    expect(revocation.statusCode, revocation.body).toBe(201);
    const mine = await staff(clinic, "GET", "/api/documents?revogado=1");
    expect(mine.statusCode, mine.body).toBe(200);
    const ids = mine.json().items.map((item: { id: string }) => item.id);
    expect(ids).toContain(revoked.documentId);
    expect(ids).not.toContain(signed.documentId);
    expect(mine.json().items.every((item: { revogado_at: string | null }) => item.revogado_at)).toBe(true);
    // Another clinic's list never shows this clinic's revoked consent.
    const theirs = await staff(other, "GET", "/api/documents?revogado=1");
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().items).toEqual([]);
    const malformed = await staff(clinic, "GET", "/api/documents?revogado=sim");
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/revogado=1/);
  });
});
