import { eq, sql } from "drizzle-orm";
import { normalizeStructure, versionContent } from "../../server/services/templates/template-content.js";
import { SAMPLE_OPTIONAL_CONSENTS, SAMPLE_TEMPLATE } from "../../shared/document-model/sample-template.js";
import type { TemplateStructure } from "../../shared/document-model/structure.js";
import { TEMPLATE_MESSAGES, type TemplateCategory, type TemplateStatus } from "../../shared/schemas/template.js";
import type { Db } from "../client.js";
import { templates, templateVersions } from "../schema.js";

interface DemoTemplate {
  titulo: string;
  especialidade: string;
  categoria: TemplateCategory;
  status: TemplateStatus;
  estrutura: TemplateStructure;
}

/** The demo clinic's templates: the sample TCLE published, a contract in review, an image-use authorisation in draft. */
const DEMO_TEMPLATES: DemoTemplate[] = [
  {
    titulo: SAMPLE_TEMPLATE.titulo,
    especialidade: "Cirurgia Plástica",
    categoria: SAMPLE_TEMPLATE.categoria,
    status: "published",
    estrutura: SAMPLE_TEMPLATE.estrutura,
  },
  {
    titulo: "Contrato de Prestação de Serviços Médicos",
    especialidade: "Dermatologia",
    categoria: "Contratos",
    status: "review",
    estrutura: {
      title: "Contrato de Prestação de Serviços - {{procedimento}}",
      introduction:
        "Pelo presente instrumento, {{paciente_nome}}, CPF {{paciente_cpf}}, doravante CONTRATANTE, e {{unidade_nome}}, doravante CONTRATADA, ajustam a prestação do serviço descrito abaixo, nas condições seguintes.",
      sections: [
        {
          id: "objeto",
          type: "paragraph",
          title: "1. Objeto",
          content:
            "A CONTRATADA realizará o procedimento {{procedimento}}, sob a responsabilidade técnica de {{profissional_nome}} ({{profissional_crm}}), na data prevista de {{data_procedimento}}.",
        },
        {
          id: "valor",
          type: "paragraph",
          title: "2. Valor e pagamento",
          content:
            "Pelo serviço, o CONTRATANTE pagará {{valor_procedimento}}, na forma combinada no ato da contratação. Materiais e medicamentos não previstos serão informados e orçados previamente.",
        },
        {
          id: "obrigacoes",
          type: "numbered_list",
          title: "3. Obrigações do CONTRATANTE",
          content:
            "Informar com veracidade seu histórico de saúde e medicamentos em uso\nSeguir as orientações pré e pós-procedimento\nComparecer aos retornos agendados",
        },
        {
          id: "cancelamento",
          type: "paragraph",
          title: "4. Cancelamento",
          content:
            "O cancelamento sem custo pode ser pedido até 48 horas antes da data marcada. O CONTRATANTE pode desistir em até 7 dias da contratação, nos termos do art. 49 do Código de Defesa do Consumidor, quando feita fora do estabelecimento.",
        },
        {
          id: "assinaturas",
          type: "signature",
          title: "Assinaturas",
          content: "{{unidade_endereco}}, {{data_atual}}.",
        },
      ],
      // What the patient must have understood before signing (decision 061).
      comprehension: [
        {
          id: "cancelamento",
          section_id: "cancelamento",
          text: "Até quando posso cancelar sem custo?",
          options: ["Até 48 horas antes da data marcada", "Até o dia do procedimento", "Não é possível cancelar"],
          correct: 0,
        },
        {
          id: "materiais",
          section_id: "valor",
          text: "Materiais e medicamentos não previstos no valor…",
          options: ["são cobrados sem aviso", "são informados e orçados antes"],
          correct: 1,
        },
      ],
    },
  },
  {
    titulo: "Autorização de Uso de Imagem",
    especialidade: "Dermatologia",
    categoria: "Éticos",
    status: "draft",
    estrutura: {
      title: "Autorização de Uso de Imagem",
      introduction:
        "Eu, {{paciente_nome}}, CPF {{paciente_cpf}}, autorizo o registro fotográfico das áreas tratadas no procedimento {{procedimento}}.",
      sections: [
        {
          id: "finalidades",
          type: "paragraph",
          title: "Finalidades",
          content:
            "Cada finalidade de uso das imagens é autorizada separadamente, em Consentimentos opcionais: respondo Sim ou Não a cada uma, e a recusa de uma não impede as demais nem o atendimento.",
        },
        {
          id: "lgpd",
          type: "paragraph",
          title: "Proteção de dados",
          content:
            "As imagens são dados pessoais sensíveis (Lei 13.709/2018, art. 11) e serão guardadas com sigilo. Esta autorização pode ser revogada a qualquer momento, por escrito, sem prejuízo ao atendimento.",
        },
        {
          id: "paciente",
          type: "patient_data",
          title: "Dados do paciente",
          content: "Nome: {{paciente_nome}}\nTelefone: {{paciente_telefone}}",
        },
        { id: "assinatura", type: "signature", title: "Assinatura", content: "{{data_atual}}" },
      ],
      // Each use of the images answered Sim or Não on its own (decision 057).
      optional_consents: SAMPLE_OPTIONAL_CONSENTS.filter((item) => item.id.startsWith("imagem-")),
      comprehension: [
        {
          id: "revogar-autorizacao",
          section_id: "lgpd",
          text: "Posso revogar esta autorização depois?",
          options: [
            "Não, ela vale para sempre",
            "Sim, a qualquer momento, por escrito, sem prejuízo ao atendimento",
            "Só pagando uma multa",
          ],
          correct: 1,
        },
      ],
    },
  },
];

/**
 * The demo clinic's templates, each with its version 1 (the published one stamped by the owner).
 * Idempotent: does nothing when the clinic already has templates.
 */
export async function seedDemoTemplates(db: Db, tenantId: string, ownerId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(templates)
      .where(eq(templates.tenant_id, tenantId));
    if ((existing?.n ?? 0) > 0) return false;
    for (const demo of DEMO_TEMPLATES) {
      const [row] = await tx
        .insert(templates)
        .values({
          tenant_id: tenantId,
          titulo: demo.titulo,
          especialidade: demo.especialidade,
          categoria: demo.categoria,
          status: demo.status,
          created_by: ownerId,
        })
        .returning({ id: templates.id });
      if (!row) throw new Error("templates insert returned no row");
      const published = demo.status === "published";
      await tx.insert(templateVersions).values({
        tenant_id: tenantId,
        template_id: row.id,
        version_number: 1,
        changelog: TEMPLATE_MESSAGES.changelogCreated,
        created_by: ownerId,
        published_at: published ? new Date() : null,
        published_by: published ? ownerId : null,
        ...versionContent(normalizeStructure(demo.estrutura)),
      });
    }
    return true;
  });
}
