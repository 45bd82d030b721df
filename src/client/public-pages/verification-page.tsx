import { FileSearch, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useCallback, useEffect, useState } from "react";
import { PdfCheck } from "./components/pdf-check";
import { Spinner } from "./components/spinner";
import { CHOICE_MESSAGES, CHOICE_RECORD_TITLE } from "@shared/schemas/choices";
import type { Verification } from "@shared/schemas/signing";
import { SIGNING_MESSAGES } from "@shared/signing-rules";
import { Panel, Pill, PlainButton, PublicShell } from "./components/public-shell";
import { formatDateTime, methodLabel, statusLabel } from "./lib/format";
import { publicFetch } from "./lib/http";

type State = { kind: "loading" } | { kind: "not-found" } | { kind: "error" } | { kind: "ready"; data: Verification };
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
          {data.recusado_em ? <Fact label="Recusado em" value={formatDateTime(data.recusado_em)} /> : null}
          {data.revogado_em ? <Fact label="Revogado em" value={formatDateTime(data.revogado_em)} /> : null}
        </dl>
        {data.revogado_em ? (
          <p className="text-sm text-muted-foreground" data-testid="verification-revoked">
            Este consentimento foi revogado. O documento assinado não foi alterado: ele comprova o consentimento dado
            até a revogação.
          </p>
        ) : null}
      </Panel>

      {data.registros && data.registros.length > 0 ? (
        // Decision 056: the sealed refusal or revocation records linked to this document.
        <Panel aria-labelledby="verify-records" data-testid="verification-records">
          <h2 id="verify-records" className="text-base font-semibold">
            Registros
          </h2>
          <ul className="grid gap-2">
            {data.registros.map((record) => (
              <li key={record.codigo} className="grid gap-1 rounded-lg border bg-background p-3 text-sm">
                <span className="font-semibold">
                  {CHOICE_RECORD_TITLE[record.tipo]}
                  {record.autorizacao ? ` da autorização “${record.autorizacao}”` : ""}
                </span>
                <span className="text-xs text-muted-foreground">
                  {record.tipo === "revogacao"
                    ? CHOICE_MESSAGES.revokedAt(formatDateTime(record.em))
                    : CHOICE_MESSAGES.refusedAt(formatDateTime(record.em))}{" "}
                  · código <span className="font-mono">{record.codigo}</span>
                </span>
                {record.pdf_sha256 ? null : (
                  <span className="text-xs text-muted-foreground">O registro selado ainda está sendo preparado.</span>
                )}
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}

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

      <PdfCheck path={`${base}/pdf`} sealedKnown={data.pdf_selado_sha256 !== null} />
    </PublicShell>
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
