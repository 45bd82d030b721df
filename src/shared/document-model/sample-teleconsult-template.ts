/**
 * The second sample offered on "Novo template": a TCLE for a teleconsultation, following CFM
 * Resolução nº 2.314/2022 (telemedicine: the patient's free and informed consent, the physician's
 * autonomy to ask for an in-person visit, records and data security), the Código de Ética Médica
 * and the LGPD (Lei 13.709/2018). Same rules as ./sample-template.ts: only variables a document
 * fills at creation, one item per line in list sections.
 */
import type { TemplateCategory } from "../schemas/template.js";
import type { TemplateStructure } from "./structure.js";

export const SAMPLE_TELECONSULT_TEMPLATE: {
  titulo: string;
  categoria: TemplateCategory;
  estrutura: TemplateStructure;
} = {
  titulo: "TCLE para Teleconsulta",
  categoria: "Consentimento",
  estrutura: {
    title: "Termo de Consentimento Livre e Esclarecido para Teleconsulta",
    introduction:
      "Este termo registra que o(a) paciente abaixo identificado(a) foi informado(a), em linguagem clara, sobre como funciona o atendimento a distância (teleconsulta), seus limites e seus cuidados, e decidiu de forma livre e voluntária ser atendido(a) assim, nos termos da Resolução CFM nº 2.314/2022 e do Código de Ética Médica.",
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
          "Data prevista da teleconsulta: {{data_procedimento}}",
        ].join("\n"),
      },
      {
        id: "sec-o-que-e",
        type: "paragraph",
        title: "O que é a teleconsulta",
        content:
          "A teleconsulta é a consulta feita a distância, por vídeo ou áudio, em tempo real, por meio de uma plataforma segura indicada pela clínica. O(A) {{profissional_nome}} conversa comigo, avalia as informações e os exames que eu apresentar e me orienta, como em uma consulta presencial, mas sem o exame físico direto.",
      },
      {
        id: "sec-limitacoes",
        type: "bullet_list",
        title: "Limites do atendimento a distância",
        content: [
          "Sem o exame físico, algumas avaliações ficam limitadas ou não são possíveis.",
          "O profissional pode concluir, a qualquer momento, que meu caso precisa de consulta presencial ou de exames, e me orientar a procurá-los.",
          "Falhas de conexão, de áudio ou de vídeo podem interromper a consulta; nesse caso ela é retomada ou remarcada, sem custo adicional pela parte não realizada.",
          "A teleconsulta não substitui o atendimento de urgência ou emergência.",
        ].join("\n"),
      },
      {
        id: "sec-emergencias",
        type: "paragraph",
        title: "Urgências e emergências",
        content:
          "Fui orientado(a) de que, diante de sinais de gravidade, como falta de ar, dor no peito, desmaio, confusão, sangramento intenso ou piora rápida, devo procurar imediatamente um pronto-socorro ou ligar para o SAMU (192), sem esperar uma nova teleconsulta.",
      },
      {
        id: "sec-compromissos",
        type: "numbered_list",
        title: "Meus compromissos",
        content: [
          "Estar em local reservado, com boa iluminação e conexão, e confirmar minha identidade quando pedido.",
          "Prestar informações verdadeiras e completas sobre meus sintomas, meu histórico de saúde, alergias e medicamentos em uso.",
          "Não gravar, fotografar nem divulgar a consulta sem a concordância do profissional.",
          "Seguir as orientações recebidas e procurar atendimento presencial quando indicado.",
        ].join("\n"),
      },
      {
        id: "sec-registros",
        type: "paragraph",
        title: "Prontuário, receitas e atestados",
        content:
          "O atendimento é registrado no meu prontuário, com a data, a hora e o meio usado, como em uma consulta presencial. Receitas, atestados e pedidos de exame emitidos na teleconsulta são documentos eletrônicos assinados pelo profissional com certificado digital, e podem ser conferidos pela farmácia, pelo laboratório ou por quem os receber.",
      },
      {
        id: "sec-lgpd",
        type: "paragraph",
        title: "Sigilo e dados pessoais (LGPD)",
        content:
          "Meus dados pessoais, inclusive os de saúde, são tratados exclusivamente para a minha assistência, o registro em prontuário e o cumprimento de obrigações legais, nos termos dos artigos 7º e 11 da Lei nº 13.709/2018, com sigilo profissional e medidas de segurança adequadas à transmissão e à guarda. Posso exercer a qualquer momento os direitos do artigo 18 da LGPD, como o acesso e a correção dos meus dados, mediante solicitação à clínica.",
      },
      {
        id: "sec-recusa",
        type: "paragraph",
        title: "Direito de recusa",
        content:
          "Sei que posso recusar a teleconsulta e pedir atendimento presencial, ou interromper a teleconsulta a qualquer momento, sem justificativa e sem prejuízo ao meu atendimento, e que posso revogar este consentimento comunicando minha decisão à clínica.",
      },
      {
        id: "sec-declaracao",
        type: "paragraph",
        title: "Declaração",
        content:
          "Declaro que li e compreendi este termo, que minhas dúvidas foram esclarecidas e que concordo, de forma livre e esclarecida, em ser atendido(a) por teleconsulta pelo(a) {{profissional_nome}} ({{profissional_crm}}).",
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
          "Profissional: {{profissional_nome}} - {{profissional_crm}}",
        ].join("\n"),
      },
    ],
    // Recording is the patient's separate choice, apart from the consent to be seen at a distance (decision 057).
    optional_consents: [
      {
        id: "gravacao-teleconsulta",
        title: "Gravação da teleconsulta",
        text: "Autorizo a gravação em áudio e vídeo desta teleconsulta, guardada com sigilo no meu prontuário, apenas para registro do atendimento.",
      },
      {
        id: "contato-mensagens",
        title: "Orientações por mensagem",
        text: "Autorizo a clínica a me enviar lembretes e orientações sobre esta teleconsulta por WhatsApp, SMS ou e-mail.",
      },
    ],
    // CFM Res. 2.314/2022 admits the recorded agreement in telemedicine: documents from this
    // template ask for it unless the create form unticks it (decision 069).
    pedir_audio: true,
    // Answered before signing; a wrong answer shows the section again (decision 061).
    comprehension: [
      {
        id: "presencial",
        section_id: "sec-limitacoes",
        text: "Se o profissional achar que a teleconsulta não basta para o meu caso, o que acontece?",
        options: [
          "Ele pode me orientar a fazer uma consulta presencial ou exames",
          "A teleconsulta continua do mesmo jeito",
          "O atendimento termina sem orientação",
        ],
        correct: 0,
      },
      {
        id: "emergencia",
        section_id: "sec-emergencias",
        text: "Se eu tiver falta de ar ou dor no peito, o que devo fazer?",
        options: [
          "Esperar a próxima teleconsulta",
          "Procurar imediatamente um pronto-socorro ou ligar para o SAMU (192)",
          "Mandar uma mensagem para a clínica e aguardar",
        ],
        correct: 1,
      },
    ],
  },
};
