/**
 * The sample template offered on "Novo template" (spec part 2 §2 New template): a complete TCLE
 * (Termo de Consentimento Livre e Esclarecido) for a procedure, following CFM Recomendação 1/2016,
 * the Código de Ética Médica (arts. 22 and 34), the CDC (arts. 6º III and 39) and the LGPD
 * (Lei 13.709/2018, health data as sensitive data, arts. 11 and 18).
 *
 * Only variables known to ./variables.ts are used, and only those a document fills at creation
 * (spec part 2 §3), so a document made from it has no unresolved placeholder. List sections hold
 * one item per line.
 */
import type { TemplateCategory } from "../schemas/template.js";
import type { TemplateStructure } from "./structure.js";

/** The sample's separate optional consents (decision 057); the demo's image authorisation reuses them. */
export const SAMPLE_OPTIONAL_CONSENTS = [
  {
    id: "imagem-prontuario",
    title: "Uso de imagem no prontuário",
    text: "Autorizo que sejam feitas fotografias e vídeos das áreas tratadas antes, durante e depois do procedimento {{procedimento}}, guardados com sigilo no meu prontuário, para acompanhar a evolução do tratamento.",
  },
  {
    id: "imagem-ensino",
    title: "Uso de imagem para ensino e publicações científicas",
    text: "Autorizo o uso dessas imagens em aulas, congressos e publicações científicas, sem mostrar meu rosto e sem dados que permitam me identificar.",
  },
  {
    id: "imagem-divulgacao",
    title: "Uso de imagem para divulgação",
    text: "Autorizo o uso dessas imagens na divulgação da clínica (site, redes sociais e material impresso), sem pagamento e de acordo com as normas de publicidade médica do Conselho Federal de Medicina.",
  },
  {
    id: "contato-pesquisas",
    title: "Contato para pesquisas",
    text: "Autorizo a clínica a me procurar por telefone, e-mail ou mensagem para me convidar a participar de pesquisas de satisfação ou científicas. Participar de qualquer pesquisa dependerá de um novo consentimento.",
  },
];

/**
 * The sample's comprehension questions (decision 061): what a patient must have understood of a
 * TCLE — no guaranteed result, what to do with warning signs, the right to change their mind.
 */
export const SAMPLE_COMPREHENSION = [
  {
    id: "resultado",
    section_id: "sec-procedimento",
    text: "O profissional garante um resultado específico para o procedimento?",
    options: [
      "Sim, o resultado é garantido",
      "Não: o resultado depende também do meu organismo e dos cuidados que eu seguir",
      "Só se eu pagar a mais",
    ],
    correct: 1,
  },
  {
    id: "sinais-de-alerta",
    section_id: "sec-cuidados-compromisso",
    text: "Se tiver febre, dor intensa ou sangramento depois do procedimento, o que devo fazer?",
    options: [
      "Comunicar imediatamente o profissional ou a clínica",
      "Esperar a consulta de retorno",
      "Nada, é sempre normal",
    ],
    correct: 0,
  },
  {
    id: "revogacao",
    section_id: "sec-revogacao",
    text: "Depois de assinar, posso desistir do procedimento?",
    options: [
      "Não, a assinatura é definitiva",
      "Só com a autorização do profissional",
      "Sim, a qualquer momento antes do procedimento, sem precisar justificar",
    ],
    correct: 2,
  },
];

export const SAMPLE_TEMPLATE: {
  titulo: string;
  categoria: TemplateCategory;
  estrutura: TemplateStructure;
} = {
  titulo: "Termo de Consentimento Livre e Esclarecido",
  categoria: "Consentimento",
  estrutura: {
    title: "Termo de Consentimento Livre e Esclarecido - {{procedimento}}",
    introduction:
      "Este Termo de Consentimento Livre e Esclarecido (TCLE) tem por finalidade registrar que o(a) paciente abaixo identificado(a) recebeu, em linguagem clara e acessível, as informações necessárias sobre o procedimento {{procedimento}}, teve a oportunidade de esclarecer todas as suas dúvidas e decidiu, de forma livre, voluntária e sem qualquer coação, autorizar a sua realização, nos termos da Recomendação CFM nº 1/2016 e dos artigos 22 e 34 do Código de Ética Médica.",
    sections: [
      {
        id: "sec-identificacao",
        type: "patient_data",
        title: "Identificação do Paciente e do Profissional",
        content: [
          "Paciente: {{paciente_nome}}",
          "CPF: {{paciente_cpf}}",
          "Data de nascimento: {{paciente_data_nascimento}}",
          "Telefone: {{paciente_telefone}} | E-mail: {{paciente_email}}",
          "",
          "Profissional responsável: {{profissional_nome}}",
          "Registro no conselho: {{profissional_crm}} | Especialidade: {{profissional_especialidade}}",
          "",
          "Data prevista do procedimento: {{data_procedimento}}",
        ].join("\n"),
      },
      {
        id: "sec-procedimento",
        type: "paragraph",
        title: "Descrição do Procedimento",
        content: [
          "Declaro que fui informado(a) pelo(a) {{profissional_nome}}, de forma clara e em linguagem acessível, sobre a natureza e os objetivos do procedimento {{procedimento}}, indicado após avaliação do meu quadro clínico, bem como sobre a técnica a ser empregada, o tipo de anestesia (quando necessária), a duração estimada e o período previsto de recuperação.",
          "",
          "Fui esclarecido(a) de que a Medicina não é uma ciência exata e de que o profissional assume obrigação de empregar todos os meios técnicos e científicos adequados, sem poder garantir um resultado específico, pois a resposta ao tratamento varia de acordo com as características individuais de cada organismo e com a observância das orientações fornecidas.",
          "",
          "Estou ciente de que, durante o procedimento, podem surgir situações imprevistas que exijam conduta diferente da planejada. Nesses casos, autorizo o profissional a adotar as medidas necessárias para preservar minha vida e minha saúde, conforme o seu julgamento técnico.",
        ].join("\n"),
      },
      {
        id: "sec-beneficios",
        type: "bullet_list",
        title: "Benefícios Esperados",
        content: "{{beneficios}}",
      },
      {
        id: "sec-riscos",
        type: "bullet_list",
        title: "Riscos e Possíveis Complicações",
        content: "{{riscos}}",
      },
      {
        id: "sec-riscos-gerais",
        type: "paragraph",
        title: "",
        content:
          "Além dos riscos acima, fui informado(a) de que todo procedimento está sujeito a riscos gerais, como reações alérgicas a medicamentos ou materiais, sangramento, infecção, alterações de cicatrização e, raramente, complicações mais graves. Informei ao profissional, de forma verdadeira e completa, meu histórico de saúde, alergias, medicamentos em uso, doenças preexistentes e procedimentos anteriores, ciente de que a omissão dessas informações pode aumentar os riscos.",
      },
      {
        id: "sec-alternativas",
        type: "paragraph",
        title: "Alternativas de Tratamento",
        content:
          "Fui informado(a) sobre as alternativas terapêuticas disponíveis para o meu caso, inclusive a de não realizar o procedimento, com as respectivas vantagens, desvantagens e consequências previsíveis de cada opção, e pude compará-las antes de tomar minha decisão.",
      },
      {
        id: "sec-cuidados",
        type: "bullet_list",
        title: "Cuidados Pós-Procedimento",
        content: "{{cuidados_pos}}",
      },
      {
        id: "sec-cuidados-compromisso",
        type: "paragraph",
        title: "",
        content:
          "Comprometo-me a seguir as orientações acima, a comparecer às consultas de retorno agendadas e a comunicar imediatamente ao profissional ou à clínica qualquer sinal ou sintoma anormal, como febre, dor intensa, sangramento ou secreção no local. Estou ciente de que o descumprimento dessas orientações pode comprometer o resultado e aumentar o risco de complicações.",
      },
      {
        id: "sec-valor",
        type: "paragraph",
        title: "Custos",
        content:
          "O valor do procedimento é de {{valor_procedimento}}, conforme informado previamente e de forma clara, nos termos do artigo 6º, inciso III, do Código de Defesa do Consumidor. Fui informado(a) sobre o que está incluído nesse valor e sobre as despesas que poderão ser cobradas à parte, como exames complementares, medicamentos, materiais especiais ou eventual reintervenção, que somente serão realizadas mediante minha prévia concordância.",
      },
      {
        id: "sec-revogacao",
        type: "paragraph",
        title: "Direito de Recusa e de Revogação do Consentimento",
        content:
          "Estou ciente de que posso recusar o procedimento ou revogar este consentimento a qualquer momento antes de sua realização, sem necessidade de justificativa e sem qualquer prejuízo ao meu atendimento, bastando comunicar minha decisão ao profissional responsável, conforme o artigo 22 do Código de Ética Médica. A revogação não afasta a responsabilidade pelos custos de etapas já realizadas, quando houver.",
      },
      {
        id: "sec-lgpd",
        type: "paragraph",
        title: "Tratamento de Dados Pessoais (LGPD)",
        content: [
          "Autorizo o tratamento dos meus dados pessoais, inclusive dos dados pessoais sensíveis referentes à minha saúde, pela clínica e pelo profissional responsável, exclusivamente para as finalidades de prestação do atendimento, registro em prontuário, tutela da saúde e cumprimento de obrigações legais e regulatórias, nos termos dos artigos 7º e 11 da Lei nº 13.709/2018 (Lei Geral de Proteção de Dados Pessoais).",
          "",
          "Meus dados serão mantidos sob sigilo profissional, protegidos por medidas de segurança adequadas, compartilhados apenas quando necessário à minha assistência ou por determinação legal, e conservados pelo prazo exigido pela legislação aplicável ao prontuário. Posso, a qualquer momento, exercer os direitos previstos no artigo 18 da LGPD, como o acesso, a correção e a informação sobre o compartilhamento dos meus dados, mediante solicitação à clínica ou ao profissional responsável.",
        ].join("\n"),
      },
      {
        id: "sec-declaracoes",
        type: "numbered_list",
        title: "Declarações do Paciente",
        content: [
          "Li e compreendi integralmente este termo, que me foi entregue com antecedência suficiente para reflexão.",
          "Recebi informações claras sobre o diagnóstico, o procedimento {{procedimento}}, seus benefícios, riscos, complicações possíveis e alternativas.",
          "Tive a oportunidade de fazer perguntas, e todas as minhas dúvidas foram esclarecidas de forma satisfatória.",
          "Prestei informações verdadeiras e completas sobre meu estado de saúde, alergias e medicamentos em uso.",
          "Estou ciente de que não há garantia de resultado específico e de que o resultado depende também da minha resposta individual e da observância dos cuidados recomendados.",
          "Sei que posso revogar este consentimento a qualquer momento antes da realização do procedimento.",
          "Autorizo, de forma livre e esclarecida, a realização do procedimento {{procedimento}} pelo(a) {{profissional_nome}} ({{profissional_crm}}), previsto para {{data_procedimento}}.",
        ].join("\n"),
      },
      {
        id: "sec-assinaturas",
        type: "signature",
        title: "Assinaturas",
        content: [
          "Data: {{data_criacao}}.",
          "",
          "Paciente: {{paciente_nome}} - CPF {{paciente_cpf}}",
          "",
          // The guardian's name and CPF when the record names one; nothing for an adult alone.
          "{{responsavel_linha}}",
          "",
          "Declaro que prestei pessoalmente ao(à) paciente todas as informações acima e esclareci suas dúvidas.",
          "Profissional: {{profissional_nome}} - {{profissional_crm}}",
        ].join("\n"),
      },
    ],
    // The use of images, once a paragraph of the term, is answered item by item, each Sim or Não
    // and apart from the consent to the procedure (decision 057).
    optional_consents: SAMPLE_OPTIONAL_CONSENTS,
    // Answered before signing; a wrong answer shows the section again (decision 061).
    comprehension: SAMPLE_COMPREHENSION,
  },
};
