import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  encodeCursorForTest,
  noticeValidBodies,
  type Probe,
  type ProbeResult,
  runProbe,
  teamValidBodies,
  validCertificateUpload,
} from "../helpers/probes.js";
import { professionalSignUp } from "../helpers/factories.js";
import { newClinic, type SignedIn } from "../helpers/sessions.js";
import { signableDocument, signatureDataUrl, tokenOf } from "../helpers/signing.js";
import { createTestApp, type TestContext } from "../helpers/test-app.js";

/**
 * the probe suite: every route of the OpenAPI document, with bad input in every text,
 * date and cursor it takes (NUL bytes, lone surrogates, impossible dates, wrong types, forged
 * cursors) and another clinic's ids in every path. Never a 500; every refusal in Portuguese.
 */

const BAD_TEXT = ["\u0000", "a\u0000b", "\ud800", "fim\udc00", "\ud83d"];
const BAD_DATES = ["2024-02-30", "2023-02-29", "0000-01-01", "2024-13-01", "9999-12-31"];
const WRONG_TYPES: unknown[] = [12345, true, ["lista"], { objeto: 1 }];
/** Zod's English fallbacks, and anything else that should never reach a clinic's screen. */
const ENGLISH =
  /\b(Invalid|expected|received|Too (big|small)|Required|must be|should|Unrecognized|Bad Request|Internal Server Error|is not a valid|exceeding)\b/;

interface Fixture {
  owner: SignedIn;
  ids: Record<string, string>;
  otherIds: Record<string, string>;
}

let ctx: TestContext;
let fixture: Fixture;

async function clinicWithEverything(app: FastifyInstance, who: SignedIn): Promise<Record<string, string>> {
  const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
    app.inject({ method, url, payload: payload as object, headers: { cookie: who.cookie } });
  const signable = await signableDocument(app, who);
  const templateId = (await call("GET", "/api/templates")).json().items[0].id as string;
  const sent = await signableDocument(app, who, { versionId: signable.versionId, nome: "Bruno Costa" });
  const link = (await call("POST", `/api/documents/${sent.documentId}/send`, {})).json().link as string;
  const procedure = await call("POST", "/api/procedures", {
    nome: "Blefaroplastia",
    descricao: "Pálpebras",
    especialidade: "cirurgia_plastica",
  });
  const risk = await call("POST", "/api/content/riscos", { titulo: "Hematoma", descricao: "Acúmulo de sangue" });
  const certificate = await call("POST", "/api/certificates", await validCertificateUpload());
  const apiKey = await call("POST", "/api/settings/api-keys", { nome: "Sistema da recepção", role: "atendente" });
  return {
    apiKey: apiKey.json().chave.id,
    certificate: certificate.json().certificado.id,
    patient: signable.patient.id,
    document: signable.documentId,
    sentDocument: sent.documentId,
    template: templateId,
    version: signable.versionId,
    procedure: procedure.json().id,
    risk: risk.json().id,
    token: tokenOf(link),
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  const owner = await newClinic(ctx.app);
  const other = await newClinic(ctx.app);
  fixture = {
    owner,
    ids: await clinicWithEverything(ctx.app, owner),
    otherIds: await clinicWithEverything(ctx.app, other),
  };
}, 120_000);
afterAll(async () => {
  await ctx.close();
});

/** Path parameters for a route, from one clinic's ids. */
function pathFor(route: string, ids: Record<string, string>): string {
  const id = route.startsWith("/api/patients")
    ? ids.patient
    : route.startsWith("/api/procedures")
      ? ids.procedure
      : route.startsWith("/api/templates")
        ? ids.template
        : route.startsWith("/api/content")
          ? ids.risk
          : route.startsWith("/api/certificates")
            ? ids.certificate
            : route.startsWith("/api/settings/api-keys")
              ? ids.apiKey
              : route.match(/\/(send|resend|link|email-link|signatures)$/)
                ? ids.sentDocument
                : ids.document;
  return (
    route
      .replace("{id}", id ?? "")
      .replace("{kind}", "riscos")
      .replace("{versionId}", ids.version ?? "")
      // No such witness: the document is looked up first (404 for another clinic's), then the witness (404).
      .replace("{witnessId}", "4b6f2d3e-8c1a-4f5e-9a7b-2c3d4e5f6a7b")
      .replace("{deliveryId}", "4b6f2d3e-8c1a-4f5e-9a7b-2c3d4e5f6a7b")
      // No such record: the document is looked up first (404 for another clinic's), then the record.
      .replace("{recordId}", "4b6f2d3e-8c1a-4f5e-9a7b-2c3d4e5f6a7b")
      // No such signature: the document is looked up first (404 for another clinic's), then its party.
      .replace("{parteId}", "4b6f2d3e-8c1a-4f5e-9a7b-2c3d4e5f6a7b")
      .replace("{token}", ids.token ?? "")
      .replace("{code}", "ABCD2345")
      .replace("{cep}", "01001000")
      // A well-formed optional consent id, so another clinic's document is checked past validation.
      .replace("{item}", "contato-pesquisas")
  );
}

/** A body each write route accepts, so that one bad field at a time reaches the code behind validation. */
function validBodies(ids: Record<string, string>, certificate: Record<string, string>): Record<string, unknown> {
  const patient = {
    nome: "Carla Dias",
    cpf: "",
    data_nascimento: "1985-03-02",
    telefone: "(11) 98765-4321",
    email: "carla@exemplo.com.br",
    cidade: "São Paulo",
    uf: "SP",
  };
  const template = {
    titulo: "TCLE Sonda",
    especialidade: "Cirurgia Plástica",
    categoria: "Consentimento",
    estrutura: {
      title: "Termo",
      introduction: "Eu, {{paciente_nome}}",
      sections: [{ id: "s1", type: "paragraph", title: "Riscos", content: "Texto" }],
    },
  };
  return {
    "POST /api/auth/sign-up": professionalSignUp(),
    "POST /api/auth/sign-in": { email: "ninguem@exemplo.com.br", password: "senha-qualquer" },
    "POST /api/auth/password-reset/request": { email: "ninguem@exemplo.com.br" },
    "POST /api/auth/password-reset/confirm": {
      token: "x".repeat(43),
      password: "senha-nova-1",
      confirmPassword: "senha-nova-1",
    },
    "POST /api/patients": patient,
    "POST /api/users": {
      nome: "Paulo Mendes",
      email: "paulo@exemplo.com.br",
      cpf: "52998224725",
      role: "atendente",
      acesso: "convite",
    },
    "PATCH /api/users/{id}/status": { is_active: false },
    "PATCH /api/users/{id}/role": { role: "auditor" },
    "POST /api/invitations/lookup": { token: "x".repeat(43) },
    "POST /api/invitations/accept": {
      token: "x".repeat(43),
      password: "senha-nova-1",
      confirmPassword: "senha-nova-1",
    },
    "PUT /api/patients/{id}": patient,
    "POST /api/patients/{id}/anonymize": { confirmacao: "ANONIMIZAR" },
    "POST /api/procedures": {
      nome: "Rinoplastia",
      descricao: "Nariz",
      especialidade: "cirurgia_plastica",
      is_private: false,
    },
    "PUT /api/procedures/{id}": {
      nome: "Rinoplastia",
      descricao: "Nariz",
      especialidade: "cirurgia_plastica",
      is_private: false,
    },
    "PUT /api/procedures/{id}/associations": { riscos: [ids.risk], beneficios: [], cuidados: [] },
    "POST /api/templates": template,
    "PUT /api/templates/{id}": template,
    "POST /api/templates/{id}/status": { status: "published" },
    "POST /api/templates/{id}/restore": { versao_id: ids.version },
    "PUT /api/me/template-defaults": {
      template_riscos: "Riscos",
      template_beneficios: "Benefícios",
      template_cuidados_pos: "Cuidados",
      template_valor_procedimento: "R$ 100,00",
    },
    "POST /api/content/{kind}": { titulo: "Edema", descricao: "Inchaço", categoria: "Comum" },
    "PUT /api/content/{kind}/{id}": { titulo: "Edema", descricao: "Inchaço", categoria: "Comum" },
    "POST /api/documents": {
      paciente_id: ids.patient,
      template_version_id: ids.version,
      titulo: "TCLE Sonda",
      procedimento: "Blefaroplastia",
      data_procedimento: "2026-12-03",
      variaveis: { riscos_personalizados: "Hematoma" },
      permitir_pendencias: true,
    },
    "POST /api/documents/{id}/cancel": { motivo: "Paciente desistiu" },
    "POST /api/documents/{id}/contact": { email: "novo.contato@exemplo.com.br" },
    "PATCH /api/settings/webhooks/{id}": { ativo: false },
    "POST /api/documents/{id}/refusal": { meio: "presencial", motivo: "Decidiu não operar" },
    "POST /api/documents/{id}/revocation": { meio: "telefone" },
    "POST /api/documents/{id}/optional-consents/{item}/revocation": { meio: "telefone" },
    "POST /api/documents/{id}/professional-signature": { senha: "senha-errada" },
    "POST /api/documents/{id}/send": {},
    "POST /api/documents/{id}/witnesses": {
      nome: "Carla Dias",
      cpf: "529.982.247-25",
      email: "carla@exemplo.com.br",
      telefone: "(11) 98765-4321",
    },
    "POST /api/documents/{id}/resend": {},
    "PUT /api/documents/{id}/a-rogo": { nome: "Joaquim Rogado", cpf: "529.982.247-25", motivo: "nao_sabe_ler" },
    "POST /api/documents/{id}/front-desk": {},
    "POST /api/auth/unlock": { senha_atual: "senha-errada" },
    "PUT /api/settings/signing": { codigo_email: false },
    "POST /api/public/sign/{token}": {
      nome: "Bruno Costa",
      cpf: "529.982.247-25",
      email: "bruno@exemplo.com.br",
      assinatura: signatureDataUrl(),
      conteudo_sha256: "0".repeat(64),
      aceite_eletronico: true,
    },
    "POST /api/public/sign/{token}/verify-code": { codigo: "123456" },
    "POST /api/public/sign/{token}/code": { canal: "email" },
    // The name and CPF are not the patient's: no probe can refuse or revoke the document it uses.
    "POST /api/public/sign/{token}/refuse": {
      nome: "Bruno Costa",
      cpf: "529.982.247-25",
      motivo: "Prefiro não fazer agora",
      conteudo_sha256: "0".repeat(64),
    },
    "POST /api/public/sign/{token}/revoke": {
      nome: "Bruno Costa",
      cpf: "529.982.247-25",
      codigo: "123456",
      motivo: "Mudei de ideia",
      conteudo_sha256: "0".repeat(64),
    },
    "POST /api/public/sign/{token}/optional-consents/{item}/revoke": {
      nome: "Bruno Costa",
      cpf: "529.982.247-25",
      codigo: "123456",
      motivo: "Não quero mais",
      conteudo_sha256: "0".repeat(64),
    },
    "POST /api/public/sign/{token}/reading": {
      secoes: [{ id: "s1", ms: 1200 }],
      salto: false,
      ouvir: ["s1"],
      texto_grande: false,
    },
    "POST /api/settings/api-keys": { nome: "Integração do prontuário", role: "atendente", expira_em: "2027-06-30" },
    "PUT /api/settings/reminders": { ativo: true, maximo: 3 },
    "PUT /api/settings/embedding": { origens: ["https://sistema.clinica-exemplo.com.br", "http://localhost:5199"] },
    "POST /api/documents/professional-signatures": { ids: [ids.document], senha: "senha-errada" },
    "POST /api/documents/professional-signatures/code": { ids: [ids.document] },
    "POST /api/certificates": certificate,
    ...teamValidBodies(),
    ...noticeValidBodies(),
    "POST /api/integration/feegow/procedures/import": { ids: [301, 302] },
    "POST /api/integration/feegow/professionals/import": { ids: [15] },
  };
}

/** Every leaf of a JSON value, as a path and the value there. */
function leaves(value: unknown, path: (string | number)[] = []): { path: (string | number)[]; value: unknown }[] {
  if (Array.isArray(value)) return value.flatMap((inner, i) => leaves(inner, [...path, i]));
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, [...path, key]));
  return [{ path, value }];
}

function withLeaf(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path[path.length - 1] as string | number] = value;
  return copy;
}

function bodyProbes(route: string, method: string, url: string, body: unknown): Probe[] {
  const probes: Probe[] = [];
  const base = { method, url, route };
  for (const leaf of leaves(body)) {
    const label = leaf.path.join(".");
    if (typeof leaf.value === "string") {
      for (const bad of BAD_TEXT)
        probes.push({ ...base, label: `${label}=${JSON.stringify(bad)}`, payload: withLeaf(body, leaf.path, bad) });
      if (/^\d{4}-\d{2}-\d{2}$/.test(leaf.value)) {
        for (const bad of BAD_DATES)
          probes.push({ ...base, label: `${label}=${bad}`, payload: withLeaf(body, leaf.path, bad) });
      }
      probes.push({ ...base, label: `${label}=1 MB`, payload: withLeaf(body, leaf.path, "x".repeat(1_000_000)) });
      probes.push({ ...base, label: `${label}=60 kB`, payload: withLeaf(body, leaf.path, "palavra ".repeat(7_500)) });
    }
    for (const wrong of WRONG_TYPES)
      probes.push({ ...base, label: `${label}=${JSON.stringify(wrong)}`, payload: withLeaf(body, leaf.path, wrong) });
  }
  if (body && typeof body === "object" && !Array.isArray(body)) {
    probes.push({ ...base, label: "chave com NUL", payload: { ...body, "x\u0000": "y" } });
  }
  for (const whole of [[], "texto", 42, null])
    probes.push({ ...base, label: `corpo=${JSON.stringify(whole)}`, payload: whole });
  probes.push({ ...base, label: "JSON malformado", rawPayload: '{"nome": "Ana"', contentType: "application/json" });
  return probes;
}

function queryProbes(route: string, url: string, names: string[]): Probe[] {
  const probes: Probe[] = [];
  const forged = [
    encodeCursorForTest("2024-02-30T00:00:00.000000Z", "00000000-0000-4000-8000-000000000000"),
    encodeCursorForTest("0000-01-01T00:00:00.000000Z", "00000000-0000-4000-8000-000000000000"),
    encodeCursorForTest("2024-01-01T00:00:00.000000Z", "x\u0000"),
    "%%%",
  ];
  for (const name of names) {
    const values = [
      "%00",
      "a%00b",
      "%ED%A0%80",
      "%F0%9F",
      encodeURIComponent("x".repeat(5000)),
      "1%27%20or%201%3D1--",
      "-1",
      "99999999999999999999",
    ];
    if (/(^|_)(de|ate|from|to)$/.test(name)) values.push(...BAD_DATES);
    if (name === "cursor") values.push(...forged.map((c) => encodeURIComponent(c)));
    for (const value of values)
      probes.push({ method: "GET", route, url: `${url}?${name}=${value}`, label: `?${name}=${value.slice(0, 40)}` });
  }
  return probes;
}

function report(results: ProbeResult[]): string[] {
  return (
    results
      // A 401 would mean a probe lost the session and every later one tested nothing.
      .filter(
        (r) =>
          r.status >= 500 ||
          (r.status === 401 && r.probe.route !== "/api/auth/sign-in") ||
          (r.status >= 400 && (ENGLISH.test(r.message) || !r.message)),
      )
      .map((r) => `${r.probe.method} ${r.probe.route} [${r.probe.label}] → ${r.status} ${r.message.slice(0, 160)}`)
  );
}

describe("bad-input sweep over every route of the OpenAPI document", () => {
  it("never answers 500, and every refusal speaks Portuguese", async () => {
    const doc = (
      ctx.app as unknown as {
        swagger(): {
          paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: unknown }>>;
        };
      }
    ).swagger();
    const bodies = validBodies(fixture.ids, await validCertificateUpload());
    const probes: Probe[] = [];
    for (const [route, operations] of Object.entries(doc.paths)) {
      // Signing out would end the session every later probe relies on (it takes no input anyway).
      if (route === "/api/auth/sign-out") continue;
      for (const [method, operation] of Object.entries(operations)) {
        const upper = method.toUpperCase();
        const url = pathFor(route, fixture.ids);
        const queryNames = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
        if (queryNames.length) probes.push(...queryProbes(route, url, queryNames));
        for (const p of (operation.parameters ?? []).filter((param) => param.in === "path")) {
          for (const bad of ["%00", "%ED%A0%80", "%ff", "nao-e-um-id", encodeURIComponent("x".repeat(300))]) {
            probes.push({
              method: upper,
              route,
              url: route.replace(`{${p.name}}`, bad).replace(/\{[a-z]+\}/g, "x"),
              label: `${p.name}=${bad.slice(0, 20)}`,
              payload: upper === "GET" || upper === "DELETE" ? undefined : {},
            });
          }
        }
        // The audio upload takes the recording as its raw body (decision 069): text, a fake PDF,
        // JSON and nothing, each under an audio type and others, with a well-formed duration.
        if (route === "/api/public/sign/{token}/audio") {
          for (const [label, rawPayload, contentType] of [
            ["texto como áudio", "isto não é áudio", "audio/webm"],
            ["PDF como áudio", "%PDF-1.7\n%%EOF\n", "audio/ogg"],
            ["NUL como áudio", "\u0000\u0000\u0000", "audio/wav"],
            ["JSON", '{"audio":"\u0000"}', "application/json"],
            ["texto puro", "olá", "text/plain"],
            ["vazio", "", "audio/mp4"],
          ] as const)
            probes.push({ method: upper, route, url: `${url}?duracao_ms=12000`, label, rawPayload, contentType });
        }
        if (upper === "POST" || upper === "PUT" || upper === "PATCH") {
          const body = bodies[`${upper} ${route}`];
          if (body !== undefined) probes.push(...bodyProbes(route, upper, url, body));
          else probes.push({ method: upper, route, url, label: "corpo com NUL", payload: { campo: "\u0000" } });
        }
      }
    }
    expect(probes.length).toBeGreaterThan(1200);
    const results: ProbeResult[] = [];
    for (const probe of probes) results.push(await runProbe(ctx.app, fixture.owner.cookie, probe));
    const statuses = new Set(results.map((r) => r.status));
    expect(statuses.has(400)).toBe(true);
    expect(report(results)).toEqual([]);
  }, 600_000);

  it("refuses a JSON body that is not UTF-8, and addresses the router cannot read, in Portuguese", async () => {
    const cookie = fixture.owner.cookie;
    // \xff\xfe is no UTF-8: Node would have saved the name as "Ana �� Silva".
    const body = Buffer.concat([
      Buffer.from('{"nome":"Ana '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' Silva","cpf":"11144477735","data_nascimento":"1990-05-10"}'),
    ]);
    const notUtf8 = await ctx.app.inject({
      method: "POST",
      url: "/api/patients",
      payload: body,
      headers: { cookie, "content-type": "application/json" },
    });
    expect(notUtf8.statusCode).toBe(400);
    expect(notUtf8.json()).toMatchObject({
      code: "VALIDATION",
      message: "O texto contém caracteres inválidos (caractere nulo ou de codificação incompleta)",
    });
    const list = await ctx.app.inject({ method: "GET", url: "/api/patients?search=Ana", headers: { cookie } });
    expect(JSON.stringify(list.json())).not.toContain("\ufffd");
    // The same body in UTF-8 is taken, and JSON's own checks still hold.
    const utf8 = Buffer.from(body.toString("latin1").replace("\u00ff\u00fe", "Luíza"), "utf8");
    const taken = await ctx.app.inject({
      method: "POST",
      url: "/api/patients",
      payload: utf8,
      headers: { cookie, "content-type": "application/json" },
    });
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json().nome).toBe("Ana Luíza Silva");
    const poisoned = await ctx.app.inject({
      method: "POST",
      url: "/api/patients",
      payload: '{"__proto__":{"x":1}}',
      headers: { cookie, "content-type": "application/json" },
    });
    expect(poisoned.statusCode).toBe(400);
    expect(poisoned.json().code).toBe("BAD_REQUEST");

    for (const url of ["/api/documents/%ff", "/api/patients/%E0%A4%A", "/%ff", `/api/public/sign/%00%ff`]) {
      const response = await ctx.app.inject({ method: "GET", url, headers: { cookie } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        code: "BAD_URL",
        message: "Endereço inválido. Confira o link e tente de novo.",
      });
    }
    const long = await ctx.app.inject({ method: "GET", url: `/api/public/sign/${"a".repeat(200)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({
      code: "URL_TOO_LONG",
      message: "Endereço longo demais. Confira o link e tente de novo.",
    });
  });

  it("answers another clinic's ids on every route with 404 or 403, never its data", async () => {
    const doc = (ctx.app as unknown as { swagger(): { paths: Record<string, Record<string, unknown>> } }).swagger();
    const bodies = validBodies(fixture.ids, await validCertificateUpload());
    const leaks: string[] = [];
    let tried = 0;
    for (const [route, operations] of Object.entries(doc.paths)) {
      if (!/\{(id)\}/.test(route)) continue;
      for (const method of Object.keys(operations)) {
        const upper = method.toUpperCase();
        const url = pathFor(route, fixture.otherIds);
        const result = await runProbe(ctx.app, fixture.owner.cookie, {
          method: upper,
          route,
          url,
          label: "outra clínica",
          payload: upper === "GET" || upper === "DELETE" ? undefined : (bodies[`${upper} ${route}`] ?? {}),
        });
        tried += 1;
        if (![403, 404].includes(result.status)) leaks.push(`${upper} ${route} → ${result.status} ${result.message}`);
      }
    }
    expect(tried).toBeGreaterThan(25);
    expect(leaks).toEqual([]);
  }, 120_000);
});
