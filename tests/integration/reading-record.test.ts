/**
 * The reading record (decision 052): POST /api/public/sign/:token/reading keeps bounded batches —
 * known sections of that document only, durations capped by the wall time since the link could
 * be opened, at most READING_MAX_BATCHES per link, nothing after signing — and the signature's
 * event carries their sum.
 */
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEvents, signingTokens } from "../../src/db/schema.js";
import { ERRORS } from "../../src/shared/errors.js";
import { READING_MAX_BATCHES } from "../../src/shared/reading/reading-record.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { publishedTemplateVersion, signableDocument, signAsPatient, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

let ctx: TestContext;
let clinic: SignedIn;
let other: SignedIn;
let versionId: string;

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
const reading = (token: string, body: unknown) => call("POST", `/api/public/sign/${token}/reading`, body);
const readingEvents = (documentId: string) =>
  ctx.database.db
    .select({ data: auditEvents.data })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entity_type, "contrato_leitura"),
        eq(auditEvents.entity_id, documentId),
        eq(auditEvents.action, "document.reading"),
      ),
    )
    .orderBy(asc(auditEvents.seq));
const expectError = (response: { statusCode: number; body: string; json(): any }, code: keyof typeof ERRORS) => {
  expect(response.statusCode, response.body).toBe(ERRORS[code].status);
  expect(response.json().code).toBe(code);
  expect(response.json().message).toMatch(/[a-zà-ú]/);
};

/** The clinic turned the code off: a simple signature, so the test signs without the outbox. */
async function sent(who: SignedIn, version: string) {
  const { documentId, patient } = await signableDocument(ctx.app, who, { versionId: version });
  const response = await call("POST", `/api/documents/${documentId}/send`, {}, who);
  expect(response.statusCode, response.body).toBe(200);
  return { documentId, patient, token: tokenOf(response.json().link) };
}

/** A template whose sections have ids of their own (a1, a2), unlike the helper's (s1, s2). */
async function otherSectionsVersion(who: SignedIn): Promise<string> {
  const specialties = (await call("GET", "/api/templates/specialties", undefined, who)).json().items as string[];
  const created = await call(
    "POST",
    "/api/templates",
    {
      titulo: "TCLE Outras Seções",
      especialidade: specialties[0],
      categoria: "Consentimento",
      estrutura: {
        title: "Termo — {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, autorizo {{procedimento}}.",
        sections: [
          { id: "a1", type: "paragraph", title: "Alternativas", content: "Outras opções." },
          { id: "a2", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
        ],
      },
    },
    who,
  );
  expect(created.statusCode, created.body).toBe(201);
  return (await call("POST", `/api/templates/${created.json().id}/status`, { status: "published" }, who)).json()
    .versao_atual_id as string;
}

beforeAll(async () => {
  ctx = await createTestApp();
  clinic = await newClinic(ctx.app);
  other = await newClinic(ctx.app);
  for (const who of [clinic, other]) {
    expect((await call("PUT", "/api/settings/signing", { codigo_email: false }, who)).statusCode).toBe(200);
  }
  versionId = await publishedTemplateVersion(ctx.app, clinic);
});
afterAll(async () => {
  await ctx.close();
});

describe("POST /api/public/sign/:token/reading (decision 052)", () => {
  it("keeps a batch, capping each section's total at the wall time since the link could be opened", async () => {
    const { documentId, token } = await sent(clinic, versionId);
    expect((await call("GET", `/api/public/sign/${token}`)).statusCode).toBe(200);
    const ok = await reading(token, {
      secoes: [
        { id: "s1", ms: 3_600_000 },
        { id: "s2", ms: 0 },
      ],
      salto: true,
      ouvir: ["s1"],
      texto_grande: true,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ registrado: true });
    const [link] = await ctx.database.db
      .select({ created: signingTokens.created_at })
      .from(signingTokens)
      .where(eq(signingTokens.contrato_id, documentId));
    const wall = Date.now() - link!.created.getTime();
    const [event] = await readingEvents(documentId);
    const data = event!.data as { secoes: Record<string, number>; salto: boolean; ouvir: string[]; papel: string };
    expect(data.secoes.s1).toBeGreaterThanOrEqual(0);
    expect(data.secoes.s1).toBeLessThanOrEqual(wall);
    expect(data).toMatchObject({ salto: true, ouvir: ["s1"], texto_grande: true, papel: "paciente" });

    // A second hour claimed adds nothing beyond the wall time either.
    expect((await reading(token, { secoes: [{ id: "s1", ms: 3_600_000 }] })).statusCode).toBe(200);
    const total = (await readingEvents(documentId))
      .map((e) => (e.data as { secoes: Record<string, number> }).secoes.s1 ?? 0)
      .reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(Date.now() - link!.created.getTime());
  });

  it("refuses unknown sections, another document's sections, and malformed bodies in pt-BR, storing nothing", async () => {
    const { documentId, token } = await sent(clinic, versionId);
    const otherVersion = await otherSectionsVersion(clinic);
    const b = await sent(clinic, otherVersion);
    expectError(await reading(token, { secoes: [{ id: "nao-existe", ms: 1000 }] }), "READING_UNKNOWN_SECTION");
    // Document B's section ids are unknown on document A's link, and A's on B's.
    expectError(await reading(token, { secoes: [{ id: "a1", ms: 1000 }] }), "READING_UNKNOWN_SECTION");
    expectError(await reading(b.token, { secoes: [{ id: "s1", ms: 1000 }] }), "READING_UNKNOWN_SECTION");
    expectError(await reading(token, { secoes: [], ouvir: ["a1"] }), "READING_UNKNOWN_SECTION");
    for (const ms of [-1, 1.5, 86_400_001, "10", null]) {
      expectError(await reading(token, { secoes: [{ id: "s1", ms }] }), "VALIDATION");
    }
    expectError(await reading(token, { secoes: "s1" }), "VALIDATION");
    expectError(await reading(token, { secoes: [], teclas: ["a", "b"] }), "VALIDATION");
    expect((await reading(token, "{não é json")).statusCode).toBe(400);
    const big = await reading(token, { secoes: [], ouvir: Array.from({ length: 190 }, (_, i) => `s${i}`.repeat(50)) });
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe("PAYLOAD_TOO_LARGE");
    expect(await readingEvents(documentId)).toEqual([]);
    expect(await readingEvents(b.documentId)).toEqual([]);
    // An unknown token is an invalid link, as on every public route.
    expectError(await reading("x".repeat(43), { secoes: [] }), "SIGNING_LINK_INVALID");
  });

  it("another clinic's link records on its own document only", async () => {
    const mine = await sent(clinic, versionId);
    const theirs = await sent(other, await publishedTemplateVersion(ctx.app, other));
    expect((await reading(theirs.token, { secoes: [{ id: "s1", ms: 10 }] })).statusCode).toBe(200);
    expect(await readingEvents(mine.documentId)).toEqual([]);
    const kept = await ctx.database.db
      .select({ tenant: auditEvents.tenant_id })
      .from(auditEvents)
      .where(and(eq(auditEvents.entity_type, "contrato_leitura"), eq(auditEvents.entity_id, theirs.documentId)));
    expect(kept.map((k) => k.tenant)).toEqual([other.tenantId]);
  });

  it(`allows ${READING_MAX_BATCHES} batches per link, then 429 and nothing more is kept`, async () => {
    const { documentId, token } = await sent(clinic, versionId);
    for (let i = 0; i < READING_MAX_BATCHES; i++) {
      const response = await reading(token, { secoes: [], salto: true });
      if (response.statusCode !== 200) throw new Error(`batch ${i}: ${response.statusCode} ${response.body}`);
    }
    expectError(await reading(token, { secoes: [], salto: true }), "READING_TOO_MANY");
    expect(await readingEvents(documentId)).toHaveLength(READING_MAX_BATCHES);
  }, 120_000);

  it("the signature carries the sum (with its own last batch); nothing is kept after signing", async () => {
    const { documentId, token, patient } = await sent(clinic, versionId);
    expect((await reading(token, { secoes: [{ id: "s1", ms: 40 }] })).statusCode).toBe(200);
    // A malformed last batch never blocks the signature.
    const refusedNot = await signAsPatient(ctx.app, ctx.database, token, patient, {
      leitura: { secoes: [{ id: "s1", ms: -5 }] },
      nome: "Nome Errado Qualquer",
    });
    expect(refusedNot.response.json().code).toBe("SIGNING_NAME_MISMATCH");
    const signed = await signAsPatient(ctx.app, ctx.database, token, patient, {
      leitura: {
        secoes: [
          { id: "s1", ms: 20 },
          { id: "fantasma", ms: 5 },
        ],
        salto: true,
      },
    });
    expect(signed.response.statusCode, signed.response.body).toBe(200);
    const [event] = (
      await ctx.database.db
        .select({ data: auditEvents.data })
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.entity_type, "contrato"),
            eq(auditEvents.entity_id, documentId),
            eq(auditEvents.action, "document.party_signed"),
          ),
        )
    ).filter((e) => (e.data as { papel: string }).papel === "paciente");
    const leitura = (event!.data as { leitura: any }).leitura;
    expect(leitura).toMatchObject({ salto: true, lotes: 2 });
    expect(leitura.secoes.map((s: { id: string }) => s.id)).toEqual(["s1", "s2"]);
    expect(leitura.secoes[0].ms).toBeLessThanOrEqual(60);
    expect(leitura.secoes[1]).toMatchObject({ id: "s2", ms: 0, exibida: false });

    const after = await reading(token, { secoes: [{ id: "s1", ms: 10 }] });
    expectError(after, "SIGNING_ALREADY_SIGNED");
    expect(await readingEvents(documentId)).toHaveLength(2);
  });
});
