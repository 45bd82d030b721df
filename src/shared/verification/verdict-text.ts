/**
 * What the browser verifier's verdicts say, in pt-BR (decision 077): shared by /verificar and the
 * saveable offline page, so both say the same, and say what a browser cannot check.
 */
import type { Verdict } from "./pdf-verifier.js";

export const VERDICT_TEXT: Record<Verdict, { ok: boolean; title: string; detail: string }> = {
  integro: {
    ok: true,
    title: "Arquivo íntegro: o selo digital confere e as evidências embutidas também.",
    detail:
      "Nada mudou no arquivo depois de selado, e o conteúdo e a cadeia de eventos batem com o que foi assinado. Confira também a impressão digital do certificado com a publicada pela clínica.",
  },
  alterado: {
    ok: false,
    title: "Arquivo alterado: bytes cobertos pela assinatura mudaram depois de assinados.",
    detail: "Este não é o arquivo selado original. Peça o PDF original à clínica.",
  },
  atualizacao_posterior: {
    ok: false,
    title: "Há uma atualização acrescentada depois do selo.",
    detail:
      "O arquivo selado continua dentro deste, mas algo foi acrescentado depois do selo (uma anotação, uma página mudada) e não é coberto pela assinatura.",
  },
  assinatura_invalida: {
    ok: false,
    title: "A assinatura digital não confere.",
    detail:
      "A assinatura não confere com o certificado que a acompanha, ou não pôde ser lida: não confie neste arquivo como evidência.",
  },
  evidencias: {
    ok: false,
    title: "O selo confere, mas as evidências embutidas não.",
    detail:
      "O conteúdo assinado ou a cadeia de eventos embutidos no arquivo não batem: veja as linhas marcadas abaixo.",
  },
  sem_assinatura: {
    ok: false,
    title: "Este arquivo não tem assinatura digital.",
    detail: "Não é um PDF selado pelo Consentir (ou a assinatura foi removida).",
  },
};

export const LOCAL_LIMITS =
  "O que esta verificação não faz: ela não diz de quem é o certificado (compare a impressão digital com a publicada pela clínica), não consulta as listas de revogação atuais nem confere a cadeia até as raízes oficiais da ICP-Brasil. Para isso, use a página do documento (pelo código de verificação) ou o verificador de linha de comando (npm run verify, com --raizes).";

export const LOCAL_PRIVACY = "A verificação roda neste navegador: o arquivo não sai do seu computador.";

/** Files larger than any sealed PDF of ours are refused before reading (decision 049). */
export const MAX_LOCAL_PDF_BYTES = 20 * 1024 * 1024;
/** A check that takes longer is stopped (the worker is terminated). */
export const LOCAL_VERIFY_TIMEOUT_MS = 20_000;

export const LOCAL_FAILURE = {
  tooLarge: "Arquivo grande demais para verificar (máximo 20 MB): um PDF selado pelo Consentir é bem menor.",
  timeout: "Não foi possível verificar este arquivo a tempo. Ele pode estar corrompido ou não ser um PDF selado.",
  unreadable: "Não foi possível ler este arquivo como PDF. Ele pode estar corrompido ou não ser um PDF.",
} as const;
