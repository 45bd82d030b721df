import { and, eq, like } from "drizzle-orm";
import type { Database } from "../../src/db/client.js";
import { contratoPartes, emailOutbox } from "../../src/db/schema.js";
import { deflateSync } from "node:zlib";
import type { FastifyInstance } from "fastify";
import { MIN_SIGNATURE_BYTES } from "../../src/shared/schemas/signing.js";
import { validCpf } from "./factories.js";
import { latestMail, type OutboxSource } from "./outbox.js";
import type { SignedIn } from "./sessions.js";

/** CRC-32 (PNG chunks). */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG (RGBA, 8 bits) with a black 2-px scribble on transparency, like a canvas export:
 * `width`×`height` px. The default 280×120 is comfortably above MIN_SIGNATURE_BYTES.
 */
export function signaturePng(width = 280, height = 120, seed = 1): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 4); // filter byte 0 + transparent pixels
    for (let x = 0; x < width; x++) {
      const curve = height / 2 + (height / 3) * Math.sin((x + seed * 7) / 9) * Math.cos((x * seed) / 41);
      if (Math.abs(y - curve) < 1.5) row.writeUInt32BE(0x000000ff, 1 + x * 4);
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type RGBA, deflate, no filter set, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

export const pngDataUrl = (bytes: Uint8Array) => `data:image/png;base64,${Buffer.from(bytes).toString("base64")}`;

/** A drawn signature as the page sends it (a valid PNG data URL, ≥ MIN_SIGNATURE_BYTES). */
export function signatureDataUrl(seed = 1): string {
  const png = signaturePng(280, 120, seed);
  if (png.length < MIN_SIGNATURE_BYTES) throw new Error(`test signature too small: ${png.length} bytes`);
  return pngDataUrl(png);
}

const STRUCTURE = {
  title: "Termo de Consentimento — {{procedimento}}",
  introduction: "Eu, {{paciente_nome}}, CPF {{cpf_paciente}}, autorizo {{medico}} a realizar {{procedimento}}.",
  sections: [
    { id: "s1", type: "paragraph", title: "Riscos", content: "Riscos explicados: {{riscos}}" },
    { id: "s2", type: "signature", title: "Assinaturas", content: "{{paciente_nome}}" },
  ],
};

type Call = (
  method: "GET" | "POST" | "PUT",
  url: string,
  payload?: unknown,
) => Promise<Awaited<ReturnType<FastifyInstance["inject"]>>>;
/** Requests as `who` (their session cookie) to `app`. */
export const caller =
  (app: FastifyInstance, who: SignedIn): Call =>
  (method, url, payload) =>
    app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });

function expectStatus(response: { statusCode: number; body: string }, status: number, what: string): void {
  if (response.statusCode !== status) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
}

/** A published template of the clinic; returns its current version id. */
export async function publishedTemplateVersion(app: FastifyInstance, who: SignedIn): Promise<string> {
  const call = caller(app, who);
  const specialties = (await call("GET", "/api/templates/specialties")).json().items as string[];
  const created = await call("POST", "/api/templates", {
    titulo: "TCLE Assinatura",
    especialidade: specialties[0],
    categoria: "Consentimento",
    estrutura: STRUCTURE,
  });
  expectStatus(created, 201, "template");
  const published = await call("POST", `/api/templates/${created.json().id}/status`, { status: "published" });
  expectStatus(published, 200, "publish");
  return published.json().versao_atual_id as string;
}

export interface SignablePatient {
  id: string;
  nome: string;
  cpf: string;
  email: string | null;
}

/** A patient with CPF (and e-mail unless `email: null`); `fields` add to (or change) the record. */
export async function signingPatient(
  app: FastifyInstance,
  who: SignedIn,
  options: { nome?: string; email?: string | null; fields?: Record<string, unknown> } = {},
): Promise<SignablePatient> {
  const nome = options.nome ?? "Ana Luíza Conceição";
  const cpf = validCpf();
  const email = options.email === undefined ? `paciente.${cpf}@exemplo.com.br` : options.email;
  const response = await caller(app, who)("POST", "/api/patients", {
    nome,
    cpf,
    data_nascimento: "1990-05-10",
    ...(email ? { email } : {}),
    ...options.fields,
  });
  expectStatus(response, 201, "patient");
  return { id: response.json().id as string, nome, cpf, email };
}

/**
 * A draft document (made through the API: frozen model, hash, PDF) for the patient, NOT signed by
 * the professional yet; `fields` add to (or change) the request's body. Returns its id.
 */
export async function unsignedDraft(
  app: FastifyInstance,
  who: SignedIn,
  draft: { versionId: string; patientId: string; fields?: Record<string, unknown> },
): Promise<string> {
  const response = await caller(app, who)("POST", "/api/documents", {
    paciente_id: draft.patientId,
    template_version_id: draft.versionId,
    titulo: "TCLE - Blefaroplastia",
    procedimento: "Blefaroplastia superior",
    medico_responsavel_id: who.profileId,
    variaveis: { riscos_personalizados: "Hematoma" },
    ...draft.fields,
  });
  expectStatus(response, 201, "document");
  return response.json().id as string;
}

/** A new patient (signingPatient) and a draft for them the professional has NOT signed yet. */
export async function unsignedDocument(
  app: FastifyInstance,
  who: SignedIn,
  options: { versionId: string; nome?: string },
): Promise<{ id: string; patient: SignablePatient }> {
  const patient = await signingPatient(app, who, { nome: options.nome });
  return { id: await unsignedDraft(app, who, { versionId: options.versionId, patientId: patient.id }), patient };
}

/** A draft document (made through the API: frozen model, hash, PDF) for the patient, ready to send. */
export async function draftDocument(
  app: FastifyInstance,
  who: SignedIn,
  versionId: string,
  patientId: string,
  titulo = "TCLE - Blefaroplastia",
  professional: { com_certificado?: boolean } = {},
  /** Where the professional's code is read when the clinic requires it (decision 078: on with SMTP). */
  database?: Database,
): Promise<string> {
  const id = await unsignedDraft(app, who, {
    versionId,
    patientId,
    fields: { titulo, data_procedimento: "2026-12-03" },
  });
  // The responsible professional signs the professional declaration before sending.
  const sign = (codigo?: string) =>
    caller(app, who)("POST", `/api/documents/${id}/professional-signature`, {
      senha: who.password,
      ...professional,
      ...(codigo ? { codigo } : {}),
    });
  let signed = await sign();
  if (signed.statusCode === 409 && signed.json().code === "PROFESSIONAL_CODE_REQUIRED" && database) {
    // The clinic requires the professional's code (decision 078): ask for it and read it, as they would.
    expectStatus(
      await caller(app, who)("POST", `/api/documents/${id}/professional-signature/code`, {}),
      200,
      "professional code",
    );
    signed = await sign(await latestProfessionalCode({ app, database }, who.email));
  }
  expectStatus(signed, 200, "professional signature");
  return id;
}

export interface SignableDocument {
  documentId: string;
  patient: SignablePatient;
}

/**
 * Template (reused when `versionId` is given) + patient + draft document, ready to send. With
 * `database`, a clinic that requires the professional's code (SMTP set) gets it from the outbox.
 */
export async function signableDocument(
  app: FastifyInstance,
  who: SignedIn,
  options: { versionId?: string; nome?: string; email?: string | null; database?: Database } = {},
): Promise<SignableDocument & { versionId: string }> {
  const versionId = options.versionId ?? (await publishedTemplateVersion(app, who));
  const patient = await signingPatient(app, who, options);
  const documentId = await draftDocument(app, who, versionId, patient.id, undefined, undefined, options.database);
  return { documentId, patient, versionId };
}

/** The professional's party row of a document, once they signed (undefined before). */
export async function professionalParty(database: Database, documentId: string) {
  const [party] = await database.db
    .select()
    .from(contratoPartes)
    .where(and(eq(contratoPartes.contrato_id, documentId), eq(contratoPartes.papel, "profissional")));
  return party;
}

/** The token at the end of a signing link. */
export function tokenOf(link: string): string {
  const token = new URL(link).pathname.split("/").pop();
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/**
 * The newest 6-digit code e-mailed to `email` (read from the outbox, as the patient reads their
 * mail): a code to sign (or refuse) or, on a signed link, to revoke the consent.
 */
/** The latest professional's signing code e-mailed to `email` (decision 078). */
export async function latestProfessionalCode(source: OutboxSource, email: string): Promise<string> {
  const mail = await latestMail(source, email, like(emailOutbox.subject, "%código de assinatura do profissional%"));
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no professional code e-mailed to ${email}`);
  return code;
}

export async function latestSigningCode(source: OutboxSource, email: string): Promise<string> {
  const mail = await latestMail(source, email, like(emailOutbox.subject, "%seu código para %"));
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no signing code e-mailed to ${email}`);
  return code;
}

export interface PatientSigning {
  /** The answer to the signature POST. */
  response: Awaited<ReturnType<FastifyInstance["inject"]>>;
  /** The page as the signer saw it before signing (unmasked when a code was verified). */
  page: any;
}

/**
 * Signs as the patient does on the page: opens it; when a code is required, asks for it, reads it
 * from the outbox and verifies it; then signs with the registered name and CPF, the consent and
 * a drawn signature. `overrides` change the signature body.
 */
export async function signAsPatient(
  app: FastifyInstance,
  database: Database,
  token: string,
  patient: SignablePatient,
  overrides: Record<string, unknown> = {},
  request: { remoteAddress?: string; headers?: Record<string, string> } = {},
): Promise<PatientSigning> {
  const call = (method: "GET" | "POST", url: string, payload?: unknown) =>
    app.inject({ method, url, payload: payload as object, ...request });
  let page = (await call("GET", `/api/public/sign/${token}`)).json();
  let codigo: string | undefined;
  if (page.codigo_obrigatorio) {
    const asked = await call("POST", `/api/public/sign/${token}/code`);
    if (asked.statusCode !== 200) throw new Error(`code: ${asked.statusCode} ${asked.body}`);
    codigo = await latestSigningCode({ app, database }, patient.email ?? "");
    const verified = await call("POST", `/api/public/sign/${token}/verify-code`, { codigo });
    if (verified.statusCode !== 200) throw new Error(`verify-code: ${verified.statusCode} ${verified.body}`);
    page = verified.json();
  }
  const response = await call("POST", `/api/public/sign/${token}`, {
    nome: patient.nome,
    cpf: patient.cpf,
    email: patient.email ?? "assinante@exemplo.com.br",
    assinatura: signatureDataUrl(),
    conteudo_sha256: page.documento.conteudo_sha256,
    aceite_eletronico: true,
    ...(codigo ? { codigo } : {}),
    ...overrides,
  });
  return { response, page };
}
