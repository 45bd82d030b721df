import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import QRCode from "qrcode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CLINIC,
  DOCUMENT_ID,
  PHYSICIAN,
  formattedDocumentInput,
  sampleDocumentInput,
} from "../../tests/unit/pdf/fixtures.js";
import type { DocumentModel } from "../shared/document-model/build-document-model.js";
import { diagonalChars, sortedChars } from "../../tests/helpers/pdf-text.js";
import {
  DRAFT_WATERMARK,
  EDGE_PT,
  documentDefinition,
  renderDocumentPdf,
  shortDocumentId,
  SIGNED_ON_LINE,
  type DocumentPdfInput,
} from "./document-pdf.js";

// Needs poppler-utils (pdftotext, pdfinfo, pdfimages): the PDF is read back the way a person's
// viewer reads it, not through our own code.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "consentir-pdf-test-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
function save(pdf: Buffer): string {
  const file = path.join(dir, `doc-${++counter}.pdf`);
  writeFileSync(file, pdf);
  return file;
}

function pdfinfo(file: string): Record<string, string> {
  const out = execFileSync("pdfinfo", ["-enc", "UTF-8", file], { encoding: "utf8" });
  const info: Record<string, string> = {};
  for (const line of out.split("\n")) {
    const match = /^([^:]+):\s*(.*)$/.exec(line);
    if (match) info[match[1]!.trim()] = match[2]!.trim();
  }
  return info;
}

function pageText(file: string, page: number): string {
  return execFileSync("pdftotext", ["-enc", "UTF-8", "-f", String(page), "-l", String(page), file, "-"], {
    encoding: "utf8",
  });
}

function allText(file: string): string {
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
}

/** The text with line breaks and runs of spaces folded to single spaces. */
const flat = (text: string) => text.replace(/\s+/g, " ");

function modelOf(sections: DocumentModel["sections"], title = "Termo de teste"): DocumentModel {
  return { title, introduction: [{ kind: "text", text: "Introdução do termo." }], sections, unresolved: [] };
}

describe("renderDocumentPdf — the sample TCLE", () => {
  let file: string;
  let input: DocumentPdfInput;
  let pages: number;

  beforeAll(async () => {
    input = sampleDocumentInput();
    const pdf = await renderDocumentPdf(input);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    file = save(pdf);
    pages = Number(pdfinfo(file).Pages);
  });

  it("is an A4 document of at least three pages with the document's metadata", () => {
    const info = pdfinfo(file);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(info["Page size"]).toMatch(/^595\.2\d? x 841\.8\d? pts \(A4\)/);
    expect(info.Title).toBe(input.model.title);
    expect(info.Title).toContain("ácido hialurônico");
    expect(info.Author).toBe("Clínica Dermatológica Pinheiros Ltda.");
    expect(info.Creator).toBe("Consentir");
    expect(info.Subject).toContain(input.contentSha256);
  });

  it("embeds its font, so accented text is extractable", () => {
    const fonts = execFileSync("pdffonts", [file], { encoding: "utf8" });
    expect(fonts).toMatch(/\+Roboto-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes\s+yes/);
    const text = allText(file);
    for (const fragment of [
      "ç",
      "ã",
      "é",
      "ô",
      "í",
      "Consentimento",
      "Declarações do Paciente",
      "João Sebastião Gonçalves",
    ]) {
      expect(text).toContain(fragment);
    }
    expect(flat(text)).toContain("Termo de Consentimento Livre e Esclarecido");
  });

  it("repeats the clinic header and the footer (page X of Y, short id, SHA-256) on every page", () => {
    expect(shortDocumentId(DOCUMENT_ID)).toBe("#8b1a4c7e");
    for (let page = 1; page <= pages; page++) {
      const text = flat(pageText(file, page));
      expect(text).toContain("Clínica Dermatológica Pinheiros Ltda.");
      expect(text).toContain("CNPJ 11.222.333/0001-81");
      expect(text).toContain("CNES 2077485");
      expect(text).toContain("Rua dos Pinheiros, 1234");
      expect(text).toContain("Tel. (11) 3045-6789");
      expect(text).toContain(`Página ${page} de ${pages}`);
      expect(text).toContain("Documento #8b1a4c7e");
      expect(text).toContain(`SHA-256 do conteúdo: ${input.contentSha256}`);
    }
  });

  it("draws the lists, the patient data and the professional's council line near the signatures", () => {
    const text = flat(allText(file));
    // pdfmake draws bullets as vector dots: check the list structure, and the items' text.
    const definition = JSON.stringify(documentDefinition(input));
    expect(definition).toContain('{"ul":[{"text":[{"text":"Hematoma e equimose: Manchas roxas');
    expect(text).toContain("Hematoma e equimose: Manchas roxas");
    expect(text).toMatch(/1\. Li e compreendi integralmente este termo/);
    expect(text).toMatch(/7\. Autorizo, de forma livre e esclarecida/);
    expect(text).toContain("Paciente: João Sebastião Gonçalves");
    const last = flat(pageText(file, pages));
    expect(last).toContain("Dra. Márcia Conceição Araújo");
    expect(last).toContain("Conselho: CRM-SP 123456");
    expect(last).toContain("RQE: 45678");
    expect(last).toContain("Especialidade: Dermatologia");
    expect(last).toContain("Paciente ou responsável legal");
    expect(last).toContain("Profissional responsável");
    // A draft: the lines are blank, for whoever signs on paper.
    expect(text).not.toContain(SIGNED_ON_LINE);
  });

  it("keeps every drawing 20 px (15 pt) or more away from the paper edge", () => {
    expect(EDGE_PT).toBe(15);
    const definition = documentDefinition(input);
    const margins = definition.pageMargins as number[];
    for (const margin of margins) expect(margin).toBeGreaterThanOrEqual(15);
    // Every glyph's box (pdftotext -bbox) lies inside the 15 pt frame of the A4 page.
    const html = execFileSync("pdftotext", ["-bbox", file, "-"], { encoding: "utf8" });
    const boxes = [...html.matchAll(/xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)"/g)].map((m) =>
      m.slice(1).map(Number),
    );
    expect(boxes.length).toBeGreaterThan(500);
    for (const [xMin, yMin, xMax, yMax] of boxes) {
      expect(xMin).toBeGreaterThanOrEqual(15);
      expect(yMin).toBeGreaterThanOrEqual(15);
      expect(xMax).toBeLessThanOrEqual(595.28 - 15);
      expect(yMax).toBeLessThanOrEqual(841.89 - 15);
    }
  });
});

describe("renderDocumentPdf — formatted sections (decision 034)", () => {
  it("draws bold and italic runs in the bold and italic fonts, and '- '/'1. ' lines as lists", async () => {
    const input = formattedDocumentInput();
    const definition = JSON.stringify(documentDefinition(input).content);
    expect(definition).toContain('{"text":"João Sebastião Gonçalves","bold":true}');
    expect(definition).toContain('{"text":"com atenção","italics":true}');
    expect(definition).toContain('{"text":"não","bold":true,"italics":true}');
    expect(definition).toMatch(/"ol":\[.*"Repouso relativo por /);
    const file = save(await renderDocumentPdf(input));
    const fonts = execFileSync("pdffonts", [file], { encoding: "utf8" });
    expect(fonts).toMatch(/\+Roboto-Italic\s/);
    expect(fonts).toMatch(/\+Roboto-MediumItalic\s/);
    const text = flat(allText(file));
    expect(text).toContain("declaro que li com atenção as orientações");
    expect(text).toContain("Antes do procedimento: Jejum de 8 horas; Suspender anticoagulantes");
    expect(text).toContain("1. Repouso relativo por 48 horas;");
    expect(text).toContain("2 * 3 e **sem fecho.");
    expect(text).not.toContain("*com atenção*");
  });
});

describe("renderDocumentPdf — user text and edge cases", () => {
  it("prints markup typed by users literally", async () => {
    const model = modelOf([
      {
        id: "s1",
        type: "paragraph",
        title: "<h1>Título</h1>",
        paragraphs: [[{ kind: "text", text: 'Texto <script>alert("x")</script> & <b>negrito</b> {{não}}' }]],
      },
      { id: "s2", type: "bullet_list", title: "", items: [[{ kind: "text", text: "<img src=x onerror=alert(1)>" }]] },
    ]);
    const file = save(await renderDocumentPdf({ ...sampleDocumentInput(), model }));
    const text = flat(allText(file));
    expect(text).toContain('Texto <script>alert("x")</script> & <b>negrito</b> {{não}}');
    expect(text).toContain("<h1>Título</h1>");
    expect(text).toContain("<img src=x onerror=alert(1)>");
  });

  it("draws unresolved placeholders visibly as [name] instead of failing or hiding them", async () => {
    const model: DocumentModel = {
      title: "Termo",
      introduction: [
        { kind: "text", text: "Eu, " },
        { kind: "missing", name: "paciente_nome" },
        { kind: "text", text: ", declaro." },
      ],
      sections: [
        {
          id: "p",
          type: "patient_data",
          title: "Dados",
          paragraphs: [
            [
              { kind: "text", text: "CPF: " },
              { kind: "missing", name: "paciente_cpf" },
            ],
          ],
        },
        { id: "l", type: "numbered_list", title: "Riscos", items: [[{ kind: "missing", name: "riscos" }]] },
      ],
      unresolved: ["paciente_nome", "paciente_cpf", "riscos"],
    };
    const definition = JSON.stringify(documentDefinition({ ...sampleDocumentInput(), model }));
    expect(definition).toContain('{"text":"[paciente_nome]","style":"missing"}');
    const text = flat(allText(save(await renderDocumentPdf({ ...sampleDocumentInput(), model }))));
    expect(text).toContain("Eu, [paciente_nome], declaro.");
    expect(text).toContain("CPF: [paciente_cpf]");
    expect(text).toContain("1. [riscos]");
  });

  it("adds the professional's identification and signature lines when the model has no signature section", async () => {
    const model = modelOf([
      { id: "s", type: "paragraph", title: "Objeto", paragraphs: [[{ kind: "text", text: "Conteúdo." }]] },
    ]);
    const file = save(await renderDocumentPdf({ ...sampleDocumentInput(), model }));
    expect(pdfinfo(file).Pages).toBe("1");
    const text = flat(allText(file));
    expect(text).toContain("Conselho: CRM-SP 123456");
    expect(text).toContain("Paciente ou responsável legal");
    expect(text).toContain("Página 1 de 1");
  });

  it("renders without a physician, with a clinic that has only a name, and with an empty model", async () => {
    const clinic = {
      nome: "Consultório Dr. Zé",
      razao_social: null,
      cnpj: null,
      cnes: null,
      endereco: null,
      telefone: null,
    };
    const model: DocumentModel = { title: "", introduction: [], sections: [], unresolved: [] };
    const file = save(await renderDocumentPdf({ ...sampleDocumentInput(), model, clinic, physician: null }));
    expect(pdfinfo(file).Pages).toBe("1");
    const text = flat(allText(file));
    expect(text).toContain("Consultório Dr. Zé");
    expect(text).not.toContain("CNPJ");
    expect(text).toContain("Página 1 de 1");
    expect(text).toContain("Paciente ou responsável legal");
  });

  it("draws the signatures block: name, CPF, badges, date/time, image or placeholder, contacts, IP, browser", async () => {
    const png = await QRCode.toBuffer("assinatura", { type: "png", width: 120 });
    const input = sampleDocumentInput({
      signatures: [
        {
          nome: "João Sebastião Gonçalves",
          cpf: "52998224725",
          email: "joao.goncalves@example.com.br",
          telefone: "11987654321",
          assinou_em: new Date("2025-03-08T13:15:42Z"),
          metodo: "eletronica",
          imagePng: png,
          papel: "paciente",
          ip: "200.150.10.7",
          userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)",
        },
        {
          nome: "Márcia Conceição Araújo",
          cpf: "111.444.777-35",
          email: null,
          telefone: null,
          assinou_em: new Date("2025-03-08T14:00:00Z"),
          metodo: "ICP-Brasil",
          imagePng: null,
          papel: "profissional",
          ip: null,
          userAgent: null,
        },
      ],
    });
    const file = save(await renderDocumentPdf(input));
    const text = flat(allText(file));
    expect(text).toContain("Assinaturas");
    expect(text).toContain("CPF: 529.982.247-25");
    expect(text).toContain("CPF: 111.444.777-35");
    expect(text).toMatch(/João Sebastião Gonçalves Assinado Eletrônica/);
    expect(text).toMatch(/Márcia Conceição Araújo Assinado ICP-Brasil/);
    expect(text).toContain("Data/hora: 08/03/2025 10:15:42 (horário de Brasília)");
    expect(text).toContain("Telefone: (11) 98765-4321");
    expect(text).toContain("Endereço IP: 200.150.10.7");
    expect(text).toContain("Navegador: Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)");
    expect(text).toContain("Assinatura Digital");
    // Both lines (patient and professional) say they were signed electronically.
    expect(text.split(SIGNED_ON_LINE).length - 1).toBe(2);
    const images = execFileSync("pdfimages", ["-list", file], { encoding: "utf8" }).trim().split("\n").slice(2);
    // One drawn signature image (a PNG with alpha is composited on white first: no "smask" entry, decision 025).
    expect(images.filter((line) => /^\s*\d+\s+\d+\s+image\s/.test(line))).toHaveLength(1);
  });

  it("does not let content reach files or the network", async () => {
    const input = sampleDocumentInput();
    const definition = documentDefinition(input);
    // A definition that names a local file or a URL as an image is refused by the access policies.
    const { pdfEngine } = await import("./fonts.js");
    for (const image of ["/etc/hostname", "http://127.0.0.1:9/x.png"]) {
      await expect(
        pdfEngine()
          .createPdf({ ...definition, content: [{ image, width: 10 }] })
          .getBuffer(),
      ).rejects.toThrow(/access policy|denied/i);
    }
  });

  it("keeps the physician's council data when only some of it is known", async () => {
    const physician = { ...PHYSICIAN, rqe: null, especialidade: null, conselho_uf: null };
    const text = flat(allText(save(await renderDocumentPdf({ ...sampleDocumentInput(), physician, clinic: CLINIC }))));
    expect(text).toContain("Conselho: CRM 123456");
    expect(text).not.toContain("RQE:");
  });
});

describe("renderDocumentPdf — the draft watermark", () => {
  it("marks every page of a draft 'RASCUNHO – sem validade', diagonally, light grey and translucent; nothing without the option", async () => {
    const input = sampleDocumentInput();
    expect(documentDefinition(input).watermark).toBeUndefined();
    expect(documentDefinition({ ...input, watermark: DRAFT_WATERMARK }).watermark).toMatchObject({
      text: "RASCUNHO – sem validade",
      color: "#9ca3af",
      opacity: 0.2,
    });

    const draft = save(await renderDocumentPdf({ ...input, watermark: DRAFT_WATERMARK }));
    const pages = Number(pdfinfo(draft).Pages);
    expect(pages).toBeGreaterThanOrEqual(3);
    for (let page = 1; page <= pages; page++)
      expect(diagonalChars(draft, page), `page ${page}`).toBe(sortedChars(DRAFT_WATERMARK));
    // The content under it is still read whole (the watermark is drawn apart from the lines).
    expect(execFileSync("pdftotext", ["-nodiag", draft, "-"], { encoding: "utf8" })).toContain(input.contentSha256);

    const plain = save(await renderDocumentPdf(input));
    for (let page = 1; page <= pages; page++) expect(diagonalChars(plain, page)).toBe("");
  });
});
