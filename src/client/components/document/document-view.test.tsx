import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { buildDocumentModel } from "@shared/document-model/build-document-model";
import { DocumentView } from "./document-view";

const html = (structure: Parameters<typeof buildDocumentModel>[0], values: Record<string, string>) =>
  renderToStaticMarkup(<DocumentView model={buildDocumentModel(structure, values)} />);

describe("DocumentView", () => {
  it("draws each section type and marks missing variables", () => {
    const out = html(
      {
        title: "Termo - {{procedimento}}",
        introduction: "Eu, {{paciente_nome}}, declaro {{desconhecida}}.",
        sections: [
          { id: "1", type: "bullet_list", title: "Riscos", content: "- Dor\n- Edema" },
          { id: "2", type: "numbered_list", title: "Passos", content: "1. Um\n2. Dois" },
          { id: "3", type: "patient_data", title: "Dados", content: "CPF: {{paciente_cpf}}" },
          { id: "4", type: "signature", title: "Assinaturas", content: "Data: hoje\n\nPaciente: {{paciente_nome}}" },
        ],
      },
      { procedimento: "Rinoplastia", paciente_nome: "Ana", paciente_cpf: "123" },
    );
    expect(out).toContain("<h2");
    expect(out).toContain("Termo - Rinoplastia");
    expect(out).toMatch(/<ul[^>]*><li[^>]*><span>Dor<\/span><\/li><li[^>]*><span>Edema<\/span><\/li><\/ul>/);
    expect(out).toMatch(/<ol[^>]*><li[^>]*><span>Um<\/span><\/li>/);
    expect(out).toContain('data-section-type="patient_data"');
    expect(out).toContain('data-slot="signature-block"');
    expect(out).toContain('<mark data-slot="missing-variable" title="Variável sem valor"');
    expect(out).toContain("{{desconhecida}}</mark>");
  });

  it("draws formatting as <strong>/<em> elements and '- ' lines of a paragraph section as a list (decision 034)", () => {
    const out = html(
      {
        title: "T",
        introduction: "",
        sections: [
          { id: "1", type: "paragraph", title: "", content: "Eu, **{{paciente_nome}}**, li *tudo*.\n- Dor\n3. Três" },
        ],
      },
      { paciente_nome: "<b>Ana</b>" },
    );
    expect(out).toContain('<strong class="font-semibold"><span>&lt;b&gt;Ana&lt;/b&gt;</span></strong>');
    expect(out).toContain("<em><span>tudo</span></em>");
    expect(out).toMatch(/<ul[^>]*><li[^>]*><span>Dor<\/span><\/li><\/ul>/);
    expect(out).toMatch(/<ol[^>]*start="3"[^>]*><li[^>]*><span>Três<\/span>/);
    expect(out).not.toContain("**");
  });

  it("never turns user text or values into HTML", () => {
    const out = html(
      { title: "<b>x</b>", introduction: "<img src=x onerror=alert(1)> {{paciente_nome}}", sections: [] },
      { paciente_nome: "<script>alert(1)</script>" },
    );
    expect(out).not.toContain("<img");
    expect(out).not.toContain("<script>");
    expect(out).not.toContain("<b>");
    expect(out).toContain("&lt;script&gt;");
  });
});
