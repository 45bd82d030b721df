import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { canonicalJson } from "../evidence/evidence.js";
import { templateInputSchema } from "../schemas/template.js";
import { signInputSchema } from "../schemas/signing.js";
import { buildDocumentModel, inlinesToText } from "./build-document-model.js";
import {
  matchOptionalAnswers,
  MAX_OPTIONAL_CONSENTS,
  OPTIONAL_CONSENT_MESSAGES,
  optionalConsentId,
  readOptionalAnswers,
} from "./optional-consents.js";
import { SAMPLE_TEMPLATE } from "./sample-template.js";
import { parseTemplateContent, type TemplateStructure } from "./structure.js";

const canonicalSha256 = (value: unknown) => createHash("sha256").update(canonicalJson(value)).digest("hex");
const base: TemplateStructure = {
  title: "Termo",
  introduction: "Eu, {{paciente_nome}}, autorizo.",
  sections: [{ id: "s1", type: "paragraph", title: "Riscos", content: "Riscos." }],
};
const items = [
  { id: "imagem-prontuario", title: "Uso de imagem no prontuário", text: "Fotos de {{procedimento}} no prontuário." },
  { id: "contato-pesquisas", title: "Contato para pesquisas", text: "Posso ser chamado(a)." },
];
const input = (optional_consents: unknown) => ({
  titulo: "TCLE",
  especialidade: "Dermatologia",
  categoria: "Consentimento",
  estrutura: { ...base, optional_consents },
});
const issues = (value: unknown) => {
  const parsed = templateInputSchema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

describe("optional consents in the document model (decision 057)", () => {
  it("freezes each item, resolved, into the model, so the model's SHA-256 covers what was offered", () => {
    const values = { paciente_nome: "Ana", procedimento: "Blefaroplastia" };
    const model = buildDocumentModel({ ...base, optional_consents: items }, values);
    expect(model.optional_consents?.map((i) => [i.id, i.title, i.paragraphs.map(inlinesToText)])).toEqual([
      ["imagem-prontuario", "Uso de imagem no prontuário", ["Fotos de Blefaroplastia no prontuário."]],
      ["contato-pesquisas", "Contato para pesquisas", ["Posso ser chamado(a)."]],
    ]);
    const without = buildDocumentModel(base, values);
    expect(without).not.toHaveProperty("optional_consents");
    // Another text for the same id is another content.
    const changed = buildDocumentModel(
      { ...base, optional_consents: [{ ...items[0]!, text: "Outro texto." }, items[1]!] },
      values,
    );
    expect(canonicalSha256(changed)).not.toBe(canonicalSha256(model));
    expect(canonicalSha256(model)).not.toBe(canonicalSha256(without));
  });

  it("reports a missing placeholder of an item like any other", () => {
    const model = buildDocumentModel({ ...base, optional_consents: items }, { paciente_nome: "Ana" });
    expect(model.unresolved).toContain("procedimento");
  });

  it("reads stored content with and without items", () => {
    expect(parseTemplateContent(JSON.stringify({ ...base, optional_consents: items }), "x").optional_consents).toEqual(
      items,
    );
    expect(parseTemplateContent(JSON.stringify(base), "x").optional_consents).toBeUndefined();
  });

  it("the sample TCLE offers the image uses and research contact as separate items", () => {
    const offered = SAMPLE_TEMPLATE.estrutura.optional_consents ?? [];
    expect(offered.map((i) => i.title)).toEqual([
      "Uso de imagem no prontuário",
      "Uso de imagem para ensino e publicações científicas",
      "Uso de imagem para divulgação",
      "Contato para pesquisas",
    ]);
    expect(issues(input(offered))).toEqual([]);
  });
});

describe("the template editor's schema", () => {
  it("accepts up to the limit and refuses more, long titles, blank texts, bad or repeated ids, in pt-BR", () => {
    const many = Array.from({ length: MAX_OPTIONAL_CONSENTS + 1 }, (_, n) => ({ id: `i${n}`, title: "T", text: "X" }));
    expect(issues(input(many.slice(0, MAX_OPTIONAL_CONSENTS)))).toEqual([]);
    expect(issues(input(many))).toContain(OPTIONAL_CONSENT_MESSAGES.tooMany);
    expect(issues(input([{ id: "a", title: "x".repeat(121), text: "X" }]))).toContain(
      OPTIONAL_CONSENT_MESSAGES.titleTooLong,
    );
    expect(issues(input([{ id: "a", title: "T", text: "   " }]))).toContain(OPTIONAL_CONSENT_MESSAGES.textRequired);
    expect(issues(input([{ id: "Com Espaço", title: "T", text: "X" }]))).toContain(OPTIONAL_CONSENT_MESSAGES.badId);
    expect(
      issues(
        input([
          { id: "a", title: "T", text: "X" },
          { id: "a", title: "U", text: "Y" },
        ]),
      ),
    ).toContain(OPTIONAL_CONSENT_MESSAGES.duplicateId);
  });

  it("makes ids from titles, unique among the taken ones", () => {
    expect(optionalConsentId("Uso de imagem para divulgação", [])).toBe("uso-de-imagem-para-divulgacao");
    expect(optionalConsentId("Uso de imagem", ["uso-de-imagem"])).toBe("uso-de-imagem-2");
    expect(optionalConsentId("!!!", [])).toBe("item");
  });
});

describe("the signer's answers", () => {
  const offered = items.map(({ id, title }) => ({ id, title }));

  it("match exactly the offered ids, each once, in the model's order", () => {
    expect(
      matchOptionalAnswers(offered, [
        { id: "contato-pesquisas", aceito: false },
        { id: "imagem-prontuario", aceito: true },
      ]),
    ).toEqual([
      { id: "imagem-prontuario", titulo: "Uso de imagem no prontuário", aceito: true },
      { id: "contato-pesquisas", titulo: "Contato para pesquisas", aceito: false },
    ]);
    expect(matchOptionalAnswers(offered, [{ id: "imagem-prontuario", aceito: true }])).toBeNull();
    expect(
      matchOptionalAnswers(offered, [
        { id: "imagem-prontuario", aceito: true },
        { id: "outro", aceito: true },
      ]),
    ).toBeNull();
    expect(
      matchOptionalAnswers(offered, [
        { id: "imagem-prontuario", aceito: true },
        { id: "imagem-prontuario", aceito: false },
      ]),
    ).toBeNull();
    expect(matchOptionalAnswers([], [])).toEqual([]);
    expect(matchOptionalAnswers([], [{ id: "x", aceito: true }])).toBeNull();
  });

  it("are booleans in the signature body (a string 'sim' is a 400)", () => {
    const body = (consentimentos_opcionais: unknown) =>
      signInputSchema.safeParse({
        nome: "Ana",
        cpf: "529.982.247-25",
        email: "ana@exemplo.com.br",
        assinatura: "data:image/png;base64,AAAA",
        conteudo_sha256: "a".repeat(64),
        aceite_eletronico: true,
        consentimentos_opcionais,
      });
    expect(body([{ id: "a", aceito: true }]).success).toBe(true);
    expect(body([{ id: "a", aceito: "sim" }]).success).toBe(false);
    expect(body("sim").success).toBe(false);
  });

  it("are read back from JSON keeping only well-formed entries", () => {
    expect(readOptionalAnswers([{ id: "a", titulo: "A", aceito: true }, { id: "b" }, null, "x"])).toEqual([
      { id: "a", titulo: "A", aceito: true },
    ]);
    expect(readOptionalAnswers(undefined)).toEqual([]);
  });
});
