/** The LEIA-ME.txt of each export (pt-BR, plain text, CRLF so Windows' Notepad shows it well). */

const crlf = (lines: string[]) => `${lines.join("\r\n")}\r\n`;

export function patientReadme(input: { clinic: string; patient: string; at: string; documents: number }): string {
  return crlf([
    "DADOS DO PACIENTE — EXPORTAÇÃO (LGPD, art. 18, II e V)",
    "",
    `Clínica: ${input.clinic}`,
    `Paciente: ${input.patient}`,
    `Gerado em: ${input.at} (horário de Brasília)`,
    "",
    "Este arquivo reúne os dados pessoais que a clínica guarda sobre o paciente no Consentir,",
    "para que ele possa conhecê-los e levá-los a outro serviço (direitos de acesso e de",
    "portabilidade da Lei Geral de Proteção de Dados, Lei 13.709/2018).",
    "",
    "O que há aqui:",
    "- paciente.json: o cadastro do paciente (nome, CPF, contatos, endereço, responsável).",
    `- documentos/: os ${input.documents} documento(s) do paciente. Documento assinado: o PDF final,`,
    "  assinado digitalmente e selado (confira em /verificar com o código impresso nele, ou",
    "  abra as assinaturas no leitor de PDF). Rascunhos, cancelados e expirados: o conteúdo",
    "  do documento como foi congelado na criação, em JSON. Recusas e revogações (do",
    "  consentimento inteiro ou de uma autorização opcional): o PDF selado de cada registro,",
    "  ao lado do documento a que se refere, com o próprio código de verificação. Aceite",
    "  gravado em áudio, quando a clínica o pediu: a gravação, com o SHA-256 que o PDF registra.",
    "- documentos.json: a lista dos documentos, com status, datas, as respostas às autorizações",
    "  opcionais, as recusas e revogações, e o arquivo de cada um.",
    "- registro-de-acessos.csv e .json: quem consultou, baixou, enviou ou alterou os dados do",
    "  paciente e seus documentos, com papel, ação e data/hora (horário de Brasília). O próprio",
    "  pedido desta exportação é a última linha.",
    "- manifesto.json: o tamanho e o SHA-256 de cada arquivo deste ZIP, para conferir que",
    "  nada foi alterado.",
    "",
    "Documentos assinados são guardados pela clínica por 20 anos (Lei 13.787/2018).",
    "Este arquivo contém dados pessoais sensíveis de saúde: guarde-o com cuidado e não o",
    "envie por canais abertos.",
  ]);
}

export function clinicReadme(input: {
  clinic: string;
  at: string;
  withFiles: boolean;
  exclusions: { tabela: string; colunas: string[]; motivo: string }[];
}): string {
  return crlf([
    "EXPORTAÇÃO COMPLETA DOS DADOS DA CLÍNICA",
    "",
    `Clínica: ${input.clinic}`,
    `Gerado em: ${input.at} (horário de Brasília)`,
    "",
    "Este arquivo tem tudo o que o Consentir guarda da clínica, para guardar fora do",
    "servidor ou levar a outro sistema.",
    "",
    "O que há aqui:",
    "- dados/<tabela>.json: cada tabela da clínica, todas as linhas, em JSON (um arquivo por",
    "  tabela; datas em ISO 8601, UTC).",
    "- planilhas/: pacientes, documentos, procedimentos e templates em CSV (separador ';',",
    "  UTF-8), para abrir numa planilha.",
    input.withFiles
      ? "- arquivos/<sha256>.<ext>: cada arquivo guardado (PDFs, imagens das assinaturas), com o"
      : "- Esta exportação foi pedida SEM os arquivos (PDFs e imagens das assinaturas);",
    input.withFiles
      ? "  SHA-256 do conteúdo como nome; arquivos/indice.json diz a que registro cada um pertence."
      : "  arquivos/indice.json ainda lista cada arquivo e o seu SHA-256.",
    "- dados/audit_events.json: a trilha de auditoria com os campos da cadeia (seq,",
    "  prev_hash, hash). Para conferir fora daqui: para cada evento, em ordem de seq,",
    "  hash = SHA-256 (hex) do texto JSON do arranjo",
    "  [prev_hash, seq, tenant_id, id, actor_profile_id, action, entity_type, entity_id,",
    "   ip_address, user_agent, data_text, created_at_utc]",
    '  escrito como o PostgreSQL o escreve: elementos separados por ", ", textos entre aspas',
    "  com escapes JSON, nulos como null; prev_hash é o hash do evento anterior (64 zeros no",
    "  primeiro). dados/audit_chain_heads.json tem o último elo. As âncoras",
    "  (dados/audit_anchors.json) são assinadas com uma chave do servidor e só ele as confere.",
    "  Os carimbos do tempo da trilha (dados/audit_trail_timestamps.json) qualquer um confere:",
    "  token_der (base64) é um carimbo RFC 3161 sobre o SHA-256 dos 32 bytes do hash do evento seq",
    "  (printf %s HASH | xxd -r -p > cabeca.bin; openssl ts -verify -data cabeca.bin -in token.tsr",
    "  -token_in -CAfile raiz-da-autoridade.pem); prova que os eventos até seq já existiam na data.",
    "- manifesto.json: data, quantidade de linhas por tabela e o tamanho e o SHA-256 de cada",
    "  arquivo deste ZIP.",
    "",
    "O que NÃO está aqui, e por quê (segredos nunca saem do servidor):",
    ...input.exclusions.map((e) => `- ${e.tabela}: ${e.colunas.join(", ")} — ${e.motivo}`),
    "",
    "As tabelas são lidas em páginas enquanto o ZIP é baixado: o que mudar durante a",
    "exportação pode aparecer num arquivo e não em outro. Documentos assinados são guardados",
    "por 20 anos (Lei 13.787/2018). Este arquivo contém dados pessoais sensíveis de saúde de",
    "todos os pacientes: guarde-o cifrado e com acesso restrito.",
  ]);
}
