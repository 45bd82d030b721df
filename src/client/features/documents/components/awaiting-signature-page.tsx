import { CheckCircle2, FilePen, Mail, XCircle } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth";
import { ApiError, errorMessage } from "@/lib/api";
import { formatDate } from "@shared/format";
import { MAX_BATCH_SIGNATURES, OTP_TTL_MINUTES } from "@shared/schemas/signing";
import { useDocuments } from "../api/documents-api";
import { type BatchSignatureRow, useBatchProfessionalSignature, useBatchSigningCode } from "../api/signing-api";
import { DocumentStatusBadge } from "./document-status-badge";

type CodeState = { kind: "idle" } | { kind: "sent"; destino: string } | { kind: "unavailable"; message: string };

/**
 * "Aguardando minha assinatura" (decision 050): the documents whose professional declaration only
 * the signed-in professional can sign, to sign several at once with one code and one password.
 * Each document is checked by the server as a single signature; the result is shown per row.
 */
export function AwaitingSignaturePage() {
  const { data: user } = useCurrentUser();
  const me = user?.profile.id;
  const list = useDocuments({
    aguardando_profissional: "1",
    medico_responsavel_id: me,
    limit: MAX_BATCH_SIGNATURES,
  });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [codeState, setCodeState] = useState<CodeState>({ kind: "idle" });
  const [results, setResults] = useState<Map<string, BatchSignatureRow>>(new Map());
  const sendCode = useBatchSigningCode();
  const sign = useBatchProfessionalSignature();
  const passwordId = useId();
  const codeId = useId();

  const items = (list.data?.items ?? []).filter((doc) => doc.aguardando_profissional);
  const ids = [...selected].filter((id) => items.some((doc) => doc.id === id));
  const codeReady = codeState.kind === "unavailable" || (codeState.kind === "sent" && code.length === 6);

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  async function askCode() {
    try {
      const sent = await sendCode.mutateAsync({ ids });
      setCodeState({ kind: "sent", destino: sent.destino });
      setCode("");
    } catch (error) {
      if (error instanceof ApiError && error.code === "PROFESSIONAL_CODE_UNAVAILABLE")
        setCodeState({ kind: "unavailable", message: error.message });
      else toast.error("Não foi possível enviar o código", { description: errorMessage(error) });
    }
  }

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    try {
      const answer = await sign.mutateAsync({
        ids,
        senha: password,
        ...(codeState.kind === "sent" ? { codigo: code } : {}),
      });
      const byId = new Map(answer.items.map((row) => [row.id, row]));
      // The rows keep their outcome on screen after the list refreshes without them.
      setResults((current) => new Map([...current, ...byId]));
      const signed = answer.items.filter((row) => row.ok).length;
      const refused = answer.items.length - signed;
      if (signed > 0) toast.success(signed === 1 ? "1 declaração assinada" : `${signed} declarações assinadas`);
      if (refused > 0)
        toast.error(refused === 1 ? "1 documento não foi assinado" : `${refused} documentos não foram assinados`);
      setSelected(new Set());
      setPassword("");
      setCode("");
      setCodeState({ kind: "idle" });
    } catch (error) {
      toast.error("Não foi possível assinar", { description: errorMessage(error) });
    }
  }

  const done = [...results.values()];

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Aguardando minha assinatura"
        description="Documentos enviados que esperam a declaração do profissional, que só você pode assinar."
      />
      {done.length > 0 ? (
        <Card data-testid="batch-results">
          <CardHeader>
            <CardTitle className="text-base">Resultado</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-2 text-sm">
              {done.map((row) => (
                <li key={row.id} className="flex items-start gap-2" data-testid="batch-result">
                  {row.ok ? (
                    <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
                  ) : (
                    <XCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
                  )}
                  <span>
                    <Link to={`/documents/${row.id}`} className="font-medium hover:underline">
                      #{row.id.slice(-8)}
                    </Link>{" "}
                    {row.ok
                      ? row.assinatura?.documento_assinado
                        ? "— assinado; era a última assinatura: o documento está concluído."
                        : "— assinado; o documento aguarda as demais partes."
                      : `— ${row.erro?.mensagem ?? "não assinado"}`}
                  </span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <FilePen className="size-4 text-primary" aria-hidden /> Documentos
          </CardTitle>
          <CardDescription>Selecione os documentos que deseja assinar de uma vez.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {list.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : list.isError ? (
            <p className="text-sm text-destructive">Não foi possível carregar os documentos.</p>
          ) : items.length === 0 ? (
            <EmptyState
              icon={<CheckCircle2 />}
              title="Nada aguardando a sua assinatura"
              description="Quando um documento enviado precisar da sua declaração, ele aparece aqui."
            />
          ) : (
            <>
              <label className="flex items-center gap-2 text-sm font-medium">
                <Checkbox
                  checked={ids.length === items.length}
                  onCheckedChange={(on) => setSelected(on === true ? new Set(items.map((doc) => doc.id)) : new Set())}
                  data-testid="select-all"
                />
                Selecionar todos ({items.length})
              </label>
              <ul className="grid divide-y rounded-md border" data-testid="awaiting-list">
                {items.map((doc) => (
                  <li key={doc.id} className="flex items-start gap-3 p-3" data-testid="awaiting-row">
                    <Checkbox
                      id={`pick-${doc.id}`}
                      checked={selected.has(doc.id)}
                      onCheckedChange={(on) => toggle(doc.id, on === true)}
                      className="mt-0.5"
                      aria-label={`Selecionar ${doc.paciente_nome ?? doc.titulo}`}
                    />
                    <label htmlFor={`pick-${doc.id}`} className="grid min-w-0 flex-1 gap-0.5 text-sm">
                      <span className="truncate font-medium">{doc.paciente_nome ?? "Paciente"}</span>
                      <span className="truncate text-muted-foreground">{doc.procedimento ?? doc.titulo}</span>
                      <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                        <DocumentStatusBadge status={doc.status} revogadoAt={doc.revogado_at} /> {doc.short_id} · criado
                        em {formatDate(doc.created_at)}
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            </>
          )}
          {ids.length > 0 ? (
            <form onSubmit={(event) => void confirm(event)} className="grid gap-3 rounded-md border p-3">
              <p className="text-sm">
                Você assina a declaração do profissional de{" "}
                <strong>{ids.length === 1 ? "1 documento" : `${ids.length} documentos`}</strong>. Cada assinatura fica
                registrada no seu documento com data, hora, IP e navegador.
              </p>
              <div className="grid gap-2" data-testid="batch-code">
                {codeState.kind === "unavailable" ? (
                  <p className="text-sm text-muted-foreground" role="status">
                    {codeState.message}
                  </p>
                ) : (
                  <>
                    <p className="text-sm">
                      {codeState.kind === "sent"
                        ? `Enviamos um código de 6 dígitos para ${codeState.destino}. Ele vale ${OTP_TTL_MINUTES} minutos e serve para todos os documentos selecionados.`
                        : "Primeiro, peça o código que vai para o e-mail da sua conta (um só código para todos)."}
                    </p>
                    <Button
                      type="button"
                      variant="outline"
                      className="w-full sm:w-fit"
                      onClick={() => void askCode()}
                      disabled={sendCode.isPending}
                    >
                      {sendCode.isPending ? <Spinner /> : <Mail />}
                      {codeState.kind === "sent" ? "Enviar outro código" : "Enviar código por e-mail"}
                    </Button>
                    {codeState.kind === "sent" ? (
                      <div className="grid gap-1">
                        <Label htmlFor={codeId}>Código recebido</Label>
                        <Input
                          id={codeId}
                          inputMode="numeric"
                          autoComplete="one-time-code"
                          maxLength={6}
                          value={code}
                          onChange={(event) => setCode(event.target.value.replace(/\D/g, "").slice(0, 6))}
                          data-testid="batch-code-input"
                        />
                      </div>
                    ) : null}
                  </>
                )}
              </div>
              <div className="grid gap-1">
                <Label htmlFor={passwordId}>Sua senha</Label>
                <Input
                  id={passwordId}
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(event) => setPassword(event.target.value)}
                  data-testid="batch-password"
                />
              </div>
              <Button
                type="submit"
                className="w-full sm:w-fit"
                disabled={!codeReady || password.length === 0 || sign.isPending}
                data-testid="batch-sign"
              >
                {sign.isPending ? <Spinner /> : <FilePen />}
                {ids.length === 1 ? "Assinar 1 documento" : `Assinar ${ids.length} documentos`}
              </Button>
            </form>
          ) : null}
        </CardContent>
      </Card>
    </div>
  );
}
