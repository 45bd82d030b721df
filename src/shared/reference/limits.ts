/** Máximo de especialidades por profissional ('Máximo de 2 especialidades permitidas'). */
export const MAX_ESPECIALIDADES = 2;

/** Máximo de áreas de atuação por especialidade ('Máximo de 3 áreas de atuação por especialidade'). */
export const MAX_AREAS_POR_ESPECIALIDADE = 3;

/*
 * Tamanho de templates e documentos (decisão 012). O custo de desenhar um PDF cresce com
 * o total de texto, com o número de linhas/parágrafos/itens e — de forma quadrática — com o
 * comprimento de uma "palavra" sem espaço (o pdfmake a quebra caractere a caractere). Os limites
 * abaixo mantêm o pior caso medido bem abaixo de 1 s por documento nesta máquina (2 núcleos);
 * as medições estão na decisão 012.
 */

/** Seções de um template. */
export const MAX_TEMPLATE_SECTIONS = 100;

/** Caracteres de uma seção (e da introdução) de um template. */
export const MAX_SECTION_CONTENT = 20_000;

/** Caracteres de texto de um template inteiro: título, introdução, títulos e conteúdo das seções. */
export const MAX_TEMPLATE_TEXT_CHARS = 50_000;

/** Quebras de linha ("\n") somadas em todo o template (parágrafos, itens de lista, linhas). */
export const MAX_TEMPLATE_LINE_BREAKS = 800;

/** Caracteres seguidos sem espaço (palavra, endereço, código) em templates e documentos. */
export const MAX_WORD_CHARS = 200;

/**
 * Caracteres de texto de um documento já preenchido (template + valores das variáveis, conteúdos
 * escolhidos e textos personalizados): um pouco acima do template, para os valores caberem.
 */
export const MAX_DOCUMENT_TEXT_CHARS = 60_000;

/** Parágrafos, itens de lista e linhas de um documento já preenchido. */
export const MAX_DOCUMENT_LINES = 1_000;

/*
 * Certificados digitais (decisão 019). Um A1 real (.pfx/.p12 com a cadeia) tem de 3 a 10 kB; o
 * limite deixa folga para cadeias longas e recusa qualquer outra coisa antes de abrir o arquivo.
 */

/** Bytes de um arquivo de certificado (.pfx/.p12) depois de decodificado. */
export const MAX_CERTIFICATE_FILE_BYTES = 64 * 1024;

/** Tentativas de senha errada de certificado por usuário, na janela abaixo (depois: 429). */
export const MAX_CERTIFICATE_PASSWORD_FAILURES = 5;

/** Janela (minutos) em que as senhas erradas de certificado são contadas. */
export const CERTIFICATE_PASSWORD_WINDOW_MINUTES = 15;

/** Dias antes do vencimento em que o proprietário é avisado (tela e e-mail, um por marco). */
export const CERTIFICATE_EXPIRY_WARNING_DAYS = [30, 7, 1] as const;
