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
