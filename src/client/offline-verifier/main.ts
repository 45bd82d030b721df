/**
 * The saveable verifier (decision 077): one HTML file with everything inline — this script, the
 * worker (as a Blob) and the styles — that a lawyer keeps and opens from disk, offline, to check a
 * sealed PDF with the same checks as /verificar. Plain DOM, no framework: what the file says is
 * set as text, never as HTML.
 */
import type { BrowserReport } from "@shared/verification/pdf-verifier";
import { LOCAL_LIMITS, LOCAL_PRIVACY, VERDICT_TEXT } from "@shared/verification/verdict-text";
import { verifyLocally } from "../public-pages/lib/local-verify";

declare const __VERIFY_WORKER_SOURCE__: string;

const workerUrl = URL.createObjectURL(new Blob([__VERIFY_WORKER_SOURCE__], { type: "text/javascript" }));
const makeWorker = () => new Worker(workerUrl, { name: "verificador" });

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

const result = element("div", { id: "resultado", "aria-live": "polite" });

function show(name: string, report: BrowserReport) {
  const text = VERDICT_TEXT[report.veredito];
  const lines = element(
    "ul",
    { class: "linhas", "data-testid": "local-lines" },
    ...report.linhas.map((line) =>
      element(
        "li",
        { class: line.ok === false ? "nao" : line.ok ? "sim" : "info" },
        `${line.ok === null ? "•" : line.ok ? "✓" : "✗"} ${line.text}`,
      ),
    ),
  );
  result.replaceChildren(
    element(
      "div",
      { "data-testid": "local-verdict", "data-verdict": report.veredito },
      element("p", { class: "arquivo" }, `Arquivo: ${name}`),
      element("p", { class: `veredito ${text.ok ? "ok" : "falha"}`, "data-testid": "local-verdict-title" }, text.title),
      element("p", {}, text.detail),
      ...(report.registro ? [element("p", { "data-testid": "local-record-title" }, report.registro.titulo)] : []),
      ...(report.documento
        ? [
            element(
              "p",
              {},
              `Documento ${report.documento.id_curto} — ${report.documento.titulo}. Código de verificação: ${report.documento.codigo_verificacao}.`,
            ),
          ]
        : []),
      ...(report.certificado
        ? [
            element(
              "p",
              { class: "pequeno digital" },
              `Certificado do selo: ${report.certificado.assunto} — impressão digital SHA-256 ${report.certificado.sha256}`,
            ),
          ]
        : []),
      element("details", { open: "" }, element("summary", {}, `Cada verificação (${report.linhas.length})`), lines),
    ),
  );
}

async function verify(file: File | undefined) {
  if (!file) return;
  result.replaceChildren(element("p", { role: "status" }, `Verificando ${file.name} neste navegador…`));
  const outcome = await verifyLocally(file, { makeWorker });
  if (outcome.kind === "done") show(file.name, outcome.report);
  else
    result.replaceChildren(
      element(
        "div",
        { "data-testid": "local-verdict", "data-verdict": "falhou" },
        element("p", { class: "veredito falha", role: "alert" }, outcome.message),
      ),
    );
}

const input = element("input", {
  type: "file",
  accept: "application/pdf,.pdf",
  "aria-label": "Arquivo PDF para verificar",
});
input.addEventListener("change", () => {
  void verify(input.files?.[0]);
  input.value = "";
});
const zone = element(
  "label",
  { class: "zona", "data-testid": "pdf-drop-zone" },
  element("strong", {}, "Arraste o PDF aqui ou clique para escolher"),
  element("span", { class: "pequeno" }, "Somente arquivos .pdf"),
  input,
);
zone.addEventListener("dragover", (event) => {
  event.preventDefault();
  zone.classList.add("arrastando");
});
zone.addEventListener("dragleave", () => zone.classList.remove("arrastando"));
zone.addEventListener("drop", (event) => {
  event.preventDefault();
  zone.classList.remove("arrastando");
  void verify(event.dataTransfer?.files[0]);
});

document.body.replaceChildren(
  element(
    "main",
    {},
    element("h1", {}, "Verificador de documentos Consentir"),
    element(
      "p",
      {},
      "Confere um PDF selado pelo Consentir sem internet: a assinatura digital, se algo foi acrescentado depois do selo e as evidências embutidas (conteúdo assinado e cadeia de eventos).",
    ),
    element("p", { class: "privacidade", "data-testid": "local-privacy" }, LOCAL_PRIVACY),
    zone,
    result,
    element("p", { class: "pequeno" }, LOCAL_LIMITS),
  ),
);
