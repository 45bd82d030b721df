import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { SAMPLE_SIGNED_AT, sampleDocumentInput, sampleEvidence } from "../../tests/unit/pdf/fixtures.js";
import { renderDocumentPdf } from "./document-pdf.js";
import { CONSENT_TEXTS, ELECTRONIC_CONSENT } from "../shared/signing-rules.js";
import {
  consentLine,
  contactSinceLine,
  formatSaoPaulo,
  formatUtc,
  ITI_VALIDATOR,
  LEGAL_NOTE_ADVANCED,
  LEGAL_NOTE_ADVANCED_DEVELOPMENT,
  LEGAL_NOTE_SIMPLE,
  LEGAL_PROFESSIONAL_ADVANCED,
  legalNote,
  NO_TIMESTAMP_NOTE,
  levelText,
  REGISTRY_TITLE,
  registryContent,
  trailAnchorText,
  type RegistryParty,
  type SignatureRegistry,
  trustText,
} from "./signature-registry.js";

describe("registry times", () => {
  it("writes each instant in UTC and in São Paulo (UTC−3, no daylight saving since 2019)", () => {
    const at = new Date("2026-01-15T02:30:05Z");
    expect(formatUtc(at)).toBe("2026-01-15 02:30:05");
    expect(formatSaoPaulo(at)).toBe("14/01/2026 23:30:05");
  });
});

describe("'Registro de assinaturas' page", () => {
  it("comes after the document, on its own last page, with events, hashes, code, link and legal note", async () => {
    const url = "https://consentir.exemplo.com.br/verificar/7K2M9QX4TB";
    const input = sampleDocumentInput();
    const { registry, attachments } = sampleEvidence(
      input,
      { verificationCode: "7K2M9QX4TB", verificationUrl: url, qrPngDataUrl: await QRCode.toDataURL(url) },
      { commonName: "Consentir — Selo da instância", fingerprintSha256: "ab".repeat(32) },
    );
    const withRegistry = await renderDocumentPdf({ ...input, registry, attachments });
    const without = await renderDocumentPdf(input);
    const dir = mkdtempSync(path.join(os.tmpdir(), "consentir-registry-"));
    const file = path.join(dir, "registro.pdf");
    writeFileSync(file, withRegistry);
    writeFileSync(path.join(dir, "sem.pdf"), without);
    const pages = (f: string) => Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [f], { encoding: "utf8" }))![1]);
    const total = pages(file);
    const documentPages = pages(path.join(dir, "sem.pdf"));
    // The registry starts on the page after the document (one or two pages with seven events).
    expect(total).toBeGreaterThan(documentPages);
    expect(total).toBeLessThanOrEqual(documentPages + 2);
    const before = execFileSync("pdftotext", ["-f", "1", "-l", String(documentPages), file, "-"], { encoding: "utf8" });
    expect(before).not.toContain(REGISTRY_TITLE);
    const last = execFileSync("pdftotext", ["-f", String(documentPages + 1), "-l", String(total), file, "-"], {
      encoding: "utf8",
    });
    const flat = last.replace(/\s+/g, " ");
    expect(last).toContain(REGISTRY_TITLE);
    expect(flat).toContain("2025-03-08 13:20:41");
    expect(last).toContain("UTC");
    expect(flat).toContain("08/03/2025 10:20:41");
    expect(last).toContain("203.0.113.7");
    expect(last).toContain(input.contentSha256);
    expect(last).toContain(registry.finalHash);
    expect(last).toContain("7K2M9QX4TB");
    expect(last).toContain(url);
    expect(last).toContain("Consentir — Selo da instância");
    // The level in words and what was checked — and what was not.
    expect(flat).toContain(
      "Assinatura eletrônica avançada — código de verificação enviado ao e-mail cadastrado (j***@example.com.br)",
    );
    expect(flat).toContain("o contato comprovado pelo código é o e-mail cadastrado, j***@example.com.br");
    expect(flat).toContain("porta de origem 53122");
    expect(flat).toContain("SHA-256 do conteúdo: ");
    expect(flat).toContain("igual ao CPF cadastrado");
    expect(flat).toContain("não conferido com o cadastro");
    expect(flat).not.toMatch(/conferidos com o cadastro|uso único\)/);
    expect(flat).toContain("Dra. Beatriz Andrade: link copiado");
    expect(flat).toContain("npm run verify -- arquivo.pdf");
    expect(SAMPLE_SIGNED_AT.toISOString()).toBe("2025-03-08T13:20:41.000Z");
    expect(flat).toContain(LEGAL_NOTE_ADVANCED.slice(0, 60));
    // The sample's consent (v1) did not admit the means of proof: the note does not say it did.
    expect(flat).toContain("aceitou o termo de assinatura eletrônica");
    expect(flat).not.toContain("As partes admitem");
    expect(last).toContain("2.200-2/2001");
    // The evidence travels inside the file.
    const list = execFileSync("pdfdetach", ["-list", file], { encoding: "utf8" });
    expect(list).toContain("documento.json");
    expect(list).toContain("evidencias.json");
  });
});

/** All the text of pdfmake content, flattened (no rendering). */
function textOf(node: unknown): string {
  if (typeof node === "string") return node;
  if (Array.isArray(node)) return node.map(textOf).join(" ");
  if (node && typeof node === "object") {
    const record = node as Record<string, unknown>;
    return ["text", "stack", "columns", "table", "body"]
      .map((key) => (key in record ? textOf(record[key]) : ""))
      .join(" ");
  }
  return "";
}
const squash = (text: string) => text.replace(/\s+/g, " ");

const party = (overrides: Partial<RegistryParty> = {}): RegistryParty => ({
  papel: "paciente",
  qualidade: null,
  nome: "Ana Luíza Conceição",
  nomeDigitado: "ana luiza conceicao",
  cpf: "52998224725",
  email: "ana@example.com.br",
  telefone: null,
  assinouEm: new Date("2026-12-01T12:00:00Z"),
  nivel: "avancada",
  motivoSimples: null,
  codigoEnviadoPara: "a***@example.com.br",
  codigoCanal: "email",
  otpVerificado: true,
  consentimento: null,
  tipoAssinatura: "desenhada",
  assinaturaSha256: null,
  dispositivo: null,
  ip: "203.0.113.9",
  porta: null,
  userAgent: null,
  ...overrides,
});

const registryWith = (parties: RegistryParty[], extra: Partial<SignatureRegistry> = {}): SignatureRegistry => ({
  chain: [],
  finalHash: "0".repeat(64),
  parties,
  linkViews: [],
  contactChanges: [],
  draftSha256: null,
  verificationCode: "7K2M9QX4TB",
  verificationUrl: "https://consentir.exemplo.com.br/verificar/7K2M9QX4TB",
  qrPngDataUrl: "data:image/png;base64,",
  sealCommonName: "Consentir — Selo da instância",
  sealFingerprint: "ab".repeat(32),
  ...extra,
});

describe("what the registry says of each signer (decision 041)", () => {
  it("names the professional's password signature for what it is, with no level", () => {
    const professional = party({
      papel: "profissional",
      tipoAssinatura: "senha",
      otpVerificado: false,
      codigoCanal: null,
      codigoEnviadoPara: null,
    });
    expect(levelText(professional)).toBe(
      "Assinatura eletrônica do profissional por login e senha — sessão própria no Consentir, senha digitada de novo para assinar (sem segundo fator)",
    );
    const text = squash(textOf(registryContent(registryWith([professional]), "c".repeat(64))));
    expect(text).not.toMatch(/avançada/);
    expect(text).toContain("CPF 529.982.247-25 e registro profissional conforme o cadastro da clínica.");
    expect(text).toContain("login e senha, sem segundo fator");
  });

  it("says why the professional signed with the password alone, when the signature recorded it (decision 078)", () => {
    const professional = party({
      papel: "profissional",
      tipoAssinatura: "senha",
      otpVerificado: false,
      codigoCanal: null,
      codigoEnviadoPara: null,
      motivoSimples: "A clínica não exige o código do profissional.",
    });
    expect(levelText(professional)).toBe(
      "Assinatura eletrônica do profissional por login e senha — sessão própria no Consentir, senha digitada de novo para assinar (sem segundo fator: A clínica não exige o código do profissional)",
    );
  });

  it("calls the professional's signature advanced only with the code from their account's e-mail (decision 042)", () => {
    const withCode = party({
      papel: "profissional",
      tipoAssinatura: "senha",
      nivel: "avancada",
      otpVerificado: true,
      codigoCanal: "email",
      codigoEnviadoPara: "p***@clinica.com.br",
    });
    expect(levelText(withCode)).toBe(
      "Assinatura eletrônica avançada do profissional — sessão própria no Consentir, senha digitada de novo e código de verificação enviado ao e-mail da conta (p***@clinica.com.br)",
    );
    const text = squash(textOf(registryContent(registryWith([withCode]), "c".repeat(64))));
    expect(text).toContain(
      "Código de verificação de uso único enviado ao e-mail da conta do profissional (p***@clinica.com.br) e digitado corretamente antes da assinatura.",
    );
    expect(text).toContain(`Ana Luíza Conceição ${LEGAL_PROFESSIONAL_ADVANCED}.`);
    expect(text).not.toContain("sem segundo fator");
    // Recorded as advanced but without a code (documents signed before decision 042): login and password.
    const old = party({
      papel: "profissional",
      tipoAssinatura: "senha",
      nivel: "avancada",
      otpVerificado: false,
      codigoCanal: null,
    });
    expect(levelText(old)).toContain("por login e senha");
    expect(legalNote([old])).toContain("(login e senha, sem segundo fator)");
  });

  it("names the guardian's own contact when the code went there, and the record's as before otherwise", () => {
    const guardian = party({
      papel: "responsavel",
      codigoCanal: "email",
      codigoEnviadoPara: "m***@exemplo.com.br",
      codigoContatoDe: "responsavel",
      contatoDesde: { em: "2026-10-01T12:00:00.000Z", por: "Maria Recepção", como: "alteracao" },
    });
    expect(levelText(guardian)).toBe(
      "Assinatura eletrônica avançada — código de verificação enviado ao e-mail do responsável legal cadastrado (m***@exemplo.com.br) e confirmado pelo signatário",
    );
    const text = squash(textOf(registryContent(registryWith([guardian]), "c".repeat(64))));
    expect(text).toContain(
      "Código de verificação de uso único enviado ao e-mail do responsável legal cadastrado (m***@exemplo.com.br)",
    );
    expect(text).toContain("Esse e-mail do responsável legal está no cadastro do paciente desde");
    const fallback = party({ papel: "responsavel", codigoCanal: "email", codigoEnviadoPara: "p***@exemplo.com.br" });
    expect(levelText(fallback)).toContain("enviado ao e-mail cadastrado (p***@exemplo.com.br)");
  });

  it("says where the code went: e-mail, SMS, or a development outbox that sent nothing", () => {
    expect(levelText(party({ codigoCanal: "sms", codigoEnviadoPara: "(**) *****-4321" }))).toBe(
      "Assinatura eletrônica avançada — código de verificação enviado ao celular cadastrado ((**) *****-4321) e confirmado pelo signatário",
    );
    const outbox = party({ codigoCanal: "caixa_de_saida" });
    expect(levelText(outbox)).toContain("servidor de desenvolvimento");
    const text = squash(textOf(registryContent(registryWith([outbox]), "c".repeat(64))));
    expect(text).toContain("caixa de saída deste servidor de desenvolvimento (nenhuma mensagem foi enviada)");
    expect(text).toContain(`Ana Luíza Conceição: ${LEGAL_NOTE_ADVANCED_DEVELOPMENT}.`);
    expect(text).not.toContain(LEGAL_NOTE_ADVANCED);
    expect(text).not.toContain("enviado ao e-mail cadastrado");
    expect(text).not.toContain("o contato comprovado pelo código");
  });

  it("says since when the contact that got the code is on the patient's record, and who recorded it (decision 046)", () => {
    const since = { em: "2026-10-01T12:00:00.000Z", por: "Maria Souza", como: "cadastro" as const };
    expect(contactSinceLine(since, "email")).toBe(
      "Esse e-mail está no cadastro do paciente desde 01/10/2026 09:00:00 (criação do cadastro, por Maria Souza), segundo a trilha de auditoria da clínica lida ao selar este PDF.",
    );
    expect(contactSinceLine({ em: "2026-11-20T12:58:00.000Z", por: null, como: "alteracao" }, "sms")).toBe(
      "Esse celular está no cadastro do paciente desde 20/11/2026 09:58:00 (última alteração desse contato), segundo a trilha de auditoria da clínica lida ao selar este PDF.",
    );
    const text = squash(
      textOf(
        registryContent(
          registryWith([
            party({ codigoCanal: "email", codigoEnviadoPara: "an***@exemplo.com.br", contatoDesde: since }),
          ]),
          "c".repeat(64),
        ),
      ),
    );
    expect(text).toContain(contactSinceLine(since, "email"));
    // Not printed when no code was verified, nor when the trail does not say.
    const simple = squash(
      textOf(
        registryContent(
          registryWith([
            party({ nivel: "simples", otpVerificado: false, codigoEnviadoPara: null, contatoDesde: since }),
          ]),
          "c".repeat(64),
        ),
      ),
    );
    expect(simple).not.toContain("está no cadastro do paciente desde");
    expect(
      squash(
        textOf(registryContent(registryWith([party({ codigoCanal: "email", contatoDesde: null })]), "c".repeat(64))),
      ),
    ).not.toContain("está no cadastro");
  });

  it("prints a port only when it is the signer's own, and says so when it is not recorded", () => {
    expect(squash(textOf(registryContent(registryWith([party({ porta: 51234 })]), "c".repeat(64))))).toContain(
      "Endereço IP 203.0.113.9, porta de origem 51234.",
    );
    expect(squash(textOf(registryContent(registryWith([party({ porta: null })]), "c".repeat(64))))).toContain(
      "Endereço IP 203.0.113.9 (porta de origem não registrada).",
    );
  });

  it("prints the consent text accepted only when it hashes to the SHA-256 recorded", () => {
    const sha = createHash("sha256").update(ELECTRONIC_CONSENT.texto).digest("hex");
    expect(consentLine({ versao: ELECTRONIC_CONSENT.versao, sha256: sha })).toContain(`“${ELECTRONIC_CONSENT.texto}”`);
    const other = consentLine({ versao: ELECTRONIC_CONSENT.versao, sha256: "f".repeat(64) });
    expect(other).not.toContain("“");
    expect(other).toContain("f".repeat(64));
  });

  it("says whether the full consent text behind 'Saiba mais' was opened, as the phone reported it", () => {
    const sha = createHash("sha256").update(ELECTRONIC_CONSENT.texto).digest("hex");
    const opened = consentLine({ versao: ELECTRONIC_CONSENT.versao, sha256: sha, detalhe_aberto: true });
    expect(opened).toContain(
      "“Saiba mais”, que o signatário abriu (registrado pelo aparelho do signatário, não conferido)",
    );
    const closed = consentLine({ versao: ELECTRONIC_CONSENT.versao, sha256: sha, detalhe_aberto: false });
    expect(closed).toContain("que o signatário não abriu");
    // v2 had no "Saiba mais": nothing said about it, even if a field were there.
    const v2 = CONSENT_TEXTS["2026-12-v2"]!;
    const sha2 = createHash("sha256").update(v2).digest("hex");
    const old = consentLine({ versao: "2026-12-v2", sha256: sha2, detalhe_aberto: true });
    expect(old).toContain(`“${v2}”`);
    expect(old).not.toContain("Saiba mais");
  });

  it("says the link signers admitted the means of proof only when their consent text admits it", () => {
    const sha = createHash("sha256").update(ELECTRONIC_CONSENT.texto).digest("hex");
    const admitted = legalNote([party({ consentimento: { versao: ELECTRONIC_CONSENT.versao, sha256: sha } })]);
    expect(admitted).toContain("admitiu este meio de comprovação");
    expect(admitted).toContain("Ana Luíza Conceição: " + LEGAL_NOTE_ADVANCED);
    const old = legalNote([party({ consentimento: { versao: "2026-11-v1", sha256: sha } })]);
    expect(old).not.toContain("admitiu");
    expect(old).toContain("aceitou o termo");
    const mixed = legalNote([
      party({
        nivel: "simples",
        otpVerificado: false,
        codigoCanal: null,
        motivoSimples: "A clínica desativou o código.",
      }),
      party({
        nome: "Dr. Paulo Reis",
        papel: "profissional",
        tipoAssinatura: "senha",
        nivel: "simples",
        otpVerificado: false,
        codigoCanal: null,
      }),
    ]);
    expect(mixed).toContain("Ana Luíza Conceição: " + LEGAL_NOTE_SIMPLE);
    expect(mixed).toContain("Dr. Paulo Reis assinou a declaração do profissional autenticado na própria conta");
    expect(mixed).not.toContain("Dr. Paulo Reis: Assinatura eletrônica avançada");
    expect(mixed).toContain("Medida Provisória nº 2.200-2/2001 (art. 10, § 2º)");
  });

  it("says what was checked of a certificate: instance seal, official root, or root not checked", () => {
    expect(trustText({ kind: "instancia" })).toContain("autoassinado, não é ICP-Brasil");
    expect(trustText({ kind: "icp", officialRoot: "Autoridade Certificadora Raiz Brasileira v10" })).toContain(
      "cadeia conferida pelo servidor até a raiz oficial “Autoridade Certificadora Raiz Brasileira v10”",
    );
    const unchecked = trustText({ kind: "icp", officialRoot: null });
    expect(unchecked).toContain("se apresenta como ICP-Brasil");
    expect(unchecked).toContain("não conferida pelo servidor com as raízes oficiais do ITI");
    expect(unchecked).toContain("revogação não consultada");
    const text = squash(
      textOf(registryContent(registryWith([party()], { sealTrust: { kind: "instancia" } }), "c".repeat(64))),
    );
    expect(text).toContain("aplicada ao arquivo inteiro: certificado próprio desta instância");
    // Unknown whether a TSA stamped it: nothing is said either way.
    expect(text).not.toContain("Sem carimbo do tempo");
    const stamped = (timestamped: boolean) =>
      squash(textOf(registryContent(registryWith([party()], { timestamped }), "c".repeat(64))));
    expect(stamped(false)).toContain(`${NO_TIMESTAMP_NOTE}.`);
    expect(stamped(true)).not.toContain("Sem carimbo do tempo");
  });
});

describe("the clinic's audit trail time-stamp on the registry (decision 072)", () => {
  it("says when and by whom the trail was anchored, and what it does not cover", () => {
    const anchor = { seq: 41, genTime: new Date("2026-12-02T13:05:09Z"), tsa: "ACT Exemplo" };
    const text = squash(textOf(registryContent(registryWith([party()], { trailAnchor: anchor }), "c".repeat(64))));
    expect(text).toContain(
      "Trilha de auditoria da clínica ancorada por carimbo do tempo em 02/12/2026 10:05:09 (ACT Exemplo)",
    );
    expect(text).toContain("os eventos da clínica até o de número 41 já existiam nessa data");
    expect(text).toContain("inclusive a assinatura deste documento, não são cobertos");
    expect(trailAnchorText(anchor)).toContain("evidencias.json");
    // Without a token, no line.
    expect(squash(textOf(registryContent(registryWith([party()]), "c".repeat(64))))).not.toContain(
      "Trilha de auditoria",
    );
  });
});

describe("Fundamento legal with ICP-Brasil signatures", () => {
  const root = "Autoridade Certificadora Raiz Brasileira v10";
  const professionalCertificate = {
    commonName: "ANA LUIZA CONCEICAO:12345678909",
    fingerprintSha256: "ab".repeat(32),
    level: "ICP-Brasil AD-RB",
  };

  it("without any ICP-Brasil signature, cites only art. 10 § 2 (means other than ICP-Brasil)", () => {
    const text = squash(
      textOf(registryContent(registryWith([party()], { sealTrust: { kind: "instancia" } }), "c".repeat(64))),
    );
    expect(text).toContain(
      "Documento assinado eletronicamente por meio de comprovação da autoria e da integridade diverso",
    );
    expect(text).not.toContain("art. 10, § 1º");
    expect(text).not.toContain("qualificada");
  });

  it("calls the e-CPF and the clinic's e-CNPJ qualified (art. 4 III, art. 10 § 1) when their chains reached an official root", () => {
    const text = squash(
      textOf(
        registryContent(
          registryWith([party()], {
            sealCommonName: "CLINICA EXEMPLO LTDA:12345678000195",
            sealTrust: { kind: "icp", officialRoot: root },
            professionalCertificate: { ...professionalCertificate, trust: { kind: "icp", officialRoot: root } },
          }),
          "c".repeat(64),
        ),
      ),
    );
    expect(text).toContain(
      `Assinatura digital com certificado ICP-Brasil “ANA LUIZA CONCEICAO:12345678909” (do profissional; cadeia conferida pelo servidor até a raiz oficial “${root}”); “CLINICA EXEMPLO LTDA:12345678000195” (selo da clínica; cadeia conferida pelo servidor até a raiz oficial “${root}”): assinatura eletrônica qualificada (Lei nº 14.063/2020, art. 4º, III)`,
    );
    expect(text).toContain("(art. 10, § 1º) presume verdadeira em relação ao signatário");
    expect(text).toContain(ITI_VALIDATOR);
    // The link signers' means stays "diverso da ICP-Brasil" (art. 10 § 2), said of them, not of the whole document.
    expect(text).toContain("As assinaturas eletrônicas descritas a seguir usam meio de comprovação");
    expect(text).not.toContain("Documento assinado eletronicamente por meio de comprovação");
  });

  it("does not call a chain it did not check against the official roots qualified, only what it would be", () => {
    const text = squash(
      textOf(
        registryContent(
          registryWith([party()], {
            sealTrust: { kind: "instancia" },
            professionalCertificate: { ...professionalCertificate, trust: { kind: "icp", officialRoot: null } },
          }),
          "c".repeat(64),
        ),
      ),
    );
    expect(text).toContain("Assinatura digital com certificado que se apresenta como ICP-Brasil");
    expect(text).toContain("cadeia não conferida pelo servidor com as raízes oficiais");
    expect(text).toContain("se o Verificador de Conformidade do ITI (https://validar.iti.gov.br) confirmar a cadeia");
    expect(text).not.toContain("): assinatura eletrônica qualificada (Lei");
    // The instance seal is not ICP-Brasil and is not listed among them.
    expect(text).not.toMatch(/selo da clínica; cadeia/);
  });

  it("names a development server's code as a simple signature, not an advanced one", () => {
    const outbox = party({ codigoCanal: "caixa_de_saida" });
    expect(levelText(outbox)).toMatch(/^Assinatura eletrônica simples \(servidor de desenvolvimento\)/);
    expect(legalNote([outbox])).toContain("Assinatura eletrônica simples (art. 4º, I), em servidor de desenvolvimento");
    expect(legalNote([outbox])).not.toContain("avançada (art. 4º, II)");
  });
});
