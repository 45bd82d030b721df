import { CheckCircle2, FileSearch, FileUp, ShieldCheck, XCircle } from "lucide-react";
import type * as React from "react";
import { useCallback, useEffect, useState } from "react";
import { EvidenceReport } from "./components/evidence-report";
import { Spinner } from "./components/spinner";
import type { PdfVerdict, Verification } from "@shared/schemas/signing";
import { SIGNING_MESSAGES } from "@shared/signing-rules";
import { Notice, Panel, Pill, PlainButton, PublicShell } from "./components/public-shell";
import { formatDateTime, methodLabel, statusLabel } from "./lib/format";
import { publicFetch } from "./lib/http";

type State = { kind: "loading" } | { kind: "not-found" } | { kind: "error" } | { kind: "ready"; data: Verification };
type Check =
  | { kind: "idle" }
  | { kind: "checking"; name: string }
  | { kind: "done"; name: string; verdict: PdfVerdict }
  | { kind: "failed"; name: string; message: string };

/** Refuse files the server would not read anyway (the sealed PDFs are far smaller). */
const MAX_PDF_BYTES = 25 * 1024 * 1024;

/** /verificar/:code: what the document is, who signed and when, and a check of a PDF file. */
export function VerificationPage({ code }: { code: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  const base = `/api/public/verify/${encodeURIComponent(code)}`;

  const load = useCallback(async () => {
    const result = await publicFetch<Verification>(base);
    if (result.ok) setState({ kind: "ready", data: result.data });
    else if (result.status === 404 || result.status === 400) setState({ kind: "not-found" });
    else setState({ kind: "error" });
  }, [base]);

  useEffect(() => {
    void load();
  }, [load]);

  if (state.kind === "loading") {
    return (
      <PublicShell>
        <Panel aria-busy="true" className="place-items-center py-16 text-sm text-muted-foreground">
          <Spinner large label="Carregando" />
          <span>Consultando o documento…</span>
        </Panel>
      </PublicShell>
    );
  }
  if (state.kind === "not-found" || state.kind === "error") {
    return (
      <PublicShell>
        <Panel className="justify-items-center py-10 text-center" data-testid="verification-not-found">
          <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground">
            <FileSearch className="size-6" aria-hidden />
          </span>
          <h1 className="text-lg font-semibold">
            {state.kind === "not-found" ? SIGNING_MESSAGES.notFound : "Não foi possível consultar o documento"}
          </h1>
          <p className="max-w-sm text-sm text-balance text-muted-foreground">
            {state.kind === "not-found"
              ? "Confira o código de verificação impresso no registro de assinaturas do PDF."
              : "Verifique sua conexão e tente novamente."}
          </p>
          {state.kind === "error" ? (
            <PlainButton variant="outline" onClick={() => (setState({ kind: "loading" }), void load())}>
              Tentar novamente
            </PlainButton>
          ) : null}
        </Panel>
      </PublicShell>
    );
  }

  const { data } = state;
  return (
    <PublicShell clinic={data.clinica}>
      <Panel className="gap-3">
        <p className="flex items-center gap-1.5 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          <ShieldCheck className="size-4 text-primary" aria-hidden /> Verificação de documento
        </p>
        <h1 className="text-xl font-semibold tracking-tight text-balance break-words sm:text-2xl">{data.titulo}</h1>
        <div className="flex flex-wrap items-center gap-2">
          <Pill
            tone={
              data.status === "signed"
                ? "success"
                : data.status === "cancelled" || data.status === "expired"
                  ? "destructive"
                  : "warning"
            }
            data-testid="verification-status"
          >
            {statusLabel(data.status)}
          </Pill>
          <span className="text-sm text-muted-foreground">Código {data.codigo}</span>
        </div>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <Fact label="Clínica" value={data.clinica} />
          <Fact label="Criado em" value={formatDateTime(data.criado_em)} />
        </dl>
      </Panel>

      <Panel aria-labelledby="verify-signatures">
        <h2 id="verify-signatures" className="text-base font-semibold">
          Assinaturas
        </h2>
        {data.assinaturas.length === 0 ? (
          <p className="text-sm text-muted-foreground">Documento ainda não foi assinado</p>
        ) : (
          <ul className="grid gap-2" data-testid="verification-signatures">
            {data.assinaturas.map((signature, index) => (
              <li key={index} className="grid gap-1 rounded-lg border bg-background p-3 text-sm">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold break-words">{signature.nome}</span>
                  <Pill tone="success">Assinado</Pill>
                  <Pill tone="outline">{methodLabel(signature.metodo_assinatura)}</Pill>
                </div>
                <span className="text-xs text-muted-foreground">CPF: {signature.cpf}</span>
                <span className="text-xs text-muted-foreground">
                  Assinado em {formatDateTime(signature.assinou_em)} (horário de Brasília)
                </span>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel aria-labelledby="verify-hashes">
        <h2 id="verify-hashes" className="text-base font-semibold">
          Resumos criptográficos (SHA-256)
        </h2>
        <dl className="grid gap-3 text-sm">
          <Fact label="Conteúdo assinado" value={<Hash value={data.conteudo_sha256} />} />
          <Fact
            label="PDF selado"
            value={
              data.pdf_selado_sha256 ? (
                <Hash value={data.pdf_selado_sha256} testId="sealed-hash" />
              ) : (
                "O PDF selado ainda está sendo preparado."
              )
            }
          />
        </dl>
      </Panel>

      <PdfCheck path={`${base}/pdf`} sealed={data.pdf_selado_sha256} />
    </PublicShell>
  );
}

function PdfCheck({ path, sealed }: { path: string; sealed: string | null }) {
  const [check, setCheck] = useState<Check>({ kind: "idle" });
  const [dragging, setDragging] = useState(false);

  async function verify(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX_PDF_BYTES)
      return setCheck({
        kind: "failed",
        name: file.name,
        message: "Arquivo grande demais para verificar (máximo 25 MB).",
      });
    setCheck({ kind: "checking", name: file.name });
    const result = await publicFetch<PdfVerdict>(path, { method: "POST", bytes: file });
    if (result.ok) setCheck({ kind: "done", name: file.name, verdict: result.data });
    else
      setCheck({
        kind: "failed",
        name: file.name,
        message: result.message ?? "Não foi possível verificar o arquivo. Tente novamente.",
      });
  }

  const onDrop = (event: React.DragEvent) => {
    event.preventDefault();
    setDragging(false);
    void verify(event.dataTransfer.files[0]);
  };

  return (
    <Panel aria-labelledby="verify-file">
      <div className="grid gap-1">
        <h2 id="verify-file" className="text-base font-semibold">
          Verificar um arquivo PDF
        </h2>
        <p className="text-sm text-muted-foreground">
          Envie o PDF que você recebeu: conferimos se ele é exatamente o PDF selado deste documento, se a assinatura
          digital dele é válida e as evidências que ele traz (conteúdo assinado e cadeia de eventos). O arquivo não fica
          guardado.
        </p>
      </div>
      <label
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`grid cursor-pointer justify-items-center gap-2 rounded-lg border-2 border-dashed p-6 text-center text-sm transition focus-within:ring-[3px] focus-within:ring-ring/50 ${
          dragging ? "border-primary bg-primary/5" : "border-input hover:bg-muted/60"
        }`}
        data-testid="pdf-drop-zone"
      >
        <FileUp className="size-7 text-primary" aria-hidden />
        <span className="font-medium">Arraste o PDF aqui ou toque para escolher</span>
        <span className="text-xs text-muted-foreground">Somente arquivos .pdf</span>
        <input
          type="file"
          accept="application/pdf,.pdf"
          className="sr-only"
          aria-label="Arquivo PDF para verificar"
          onChange={(event) => {
            void verify(event.target.files?.[0]);
            event.target.value = "";
          }}
        />
      </label>

      {check.kind === "checking" ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
          <Spinner /> Verificando {check.name}…
        </p>
      ) : null}
      {check.kind === "failed" ? <Notice tone="error" title={check.message} /> : null}
      {check.kind === "done" ? (
        <Verdict name={check.name} verdict={check.verdict} sealedKnown={sealed !== null} />
      ) : null}
    </Panel>
  );
}

function Verdict({ name, verdict, sealedKnown }: { name: string; verdict: PdfVerdict; sealedKnown: boolean }) {
  return (
    <div className="grid gap-2" data-testid="pdf-verdict" aria-live="polite">
      <p className="text-sm break-all text-muted-foreground">Arquivo: {name}</p>
      <Outcome
        ok={verdict.identico}
        testId="verdict-identical"
        yes="Este arquivo é exatamente o PDF selado deste documento."
        no={
          sealedKnown
            ? "Este arquivo NÃO é o PDF selado deste documento: o conteúdo é diferente (SHA-256 não confere)."
            : "Ainda não há PDF selado para comparar: tente de novo em instantes."
        }
      />
      <Outcome
        ok={verdict.assinatura_valida}
        testId="verdict-signature"
        yes={`O selo digital do arquivo está íntegro e é de um certificado conhecido deste servidor ou da clínica${verdict.certificado ? ` (${verdict.certificado})` : ""}.`}
        no={
          verdict.selo_integro
            ? `O selo digital do arquivo está íntegro, mas o certificado${verdict.certificado ? ` “${verdict.certificado}”` : ""} NÃO é deste servidor nem da clínica: qualquer um pode criar um certificado com o mesmo nome.`
            : "O arquivo não tem selo digital válido: foi alterado depois de selado, ou não é um PDF selado."
        }
      />
      <p className="text-xs break-all text-muted-foreground">SHA-256 do arquivo: {verdict.sha256}</p>
      {verdict.evidencias ? (
        <EvidenceReport evidence={verdict.evidencias} />
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="evidence-missing">
          Este arquivo não traz as evidências embutidas (documento.json e evidencias.json) ou elas não puderam ser
          lidas.
        </p>
      )}
    </div>
  );
}

function Outcome({ ok, yes, no, testId }: { ok: boolean; yes: string; no: string; testId: string }) {
  return (
    <p
      data-testid={testId}
      data-ok={ok}
      className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm font-medium ${
        ok
          ? "border-success/40 bg-success/10 text-[color-mix(in_oklab,var(--color-success)_55%,black)]"
          : "border-destructive/40 bg-destructive/5 text-destructive"
      }`}
    >
      {ok ? (
        <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
      ) : (
        <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      )}
      <span>{ok ? yes : no}</span>
    </p>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words">{value}</dd>
    </div>
  );
}

function Hash({ value, testId }: { value: string; testId?: string }) {
  return (
    <code className="block rounded bg-muted px-2 py-1 font-mono text-xs break-all" data-testid={testId}>
      {value}
    </code>
  );
}
