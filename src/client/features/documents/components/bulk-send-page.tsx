import type * as React from "react";
import { AlertTriangle, OctagonX, Send } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { toast } from "sonner";
import { NativeSelect } from "@/components/form/native-select";
import { LoadError } from "@/components/list/load-error";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "@/components/ui/alert-dialog";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useCurrentUser } from "@/features/auth";
import { errorMessage } from "@/lib/api";
import { normalizeCpf } from "@shared/br/cpf";
import { profileCan } from "@shared/permissions";
import { BULK_SEND_CHUNK, type BulkSendRow } from "@shared/schemas/bulk-send";
import { useBulkSend, useBulkSendOptions } from "../api/bulk-send-api";
import { useDocumentFormOptions } from "../api/documents-api";
import { BulkCpfImport } from "./bulk-cpf-import";
import { BulkPatientPicker, type PickedPatient } from "./bulk-patient-picker";
import { channelList } from "../lib/channel-list";
import { BulkResults, type RowOutcome } from "./bulk-results";

/** A row of the batch as the screen knows it: what to send and how to name it. */
export interface BatchRow {
  key: string;
  label: string;
  input: BulkSendRow;
}

/**
 * Enviar em lote (decision 076): a template, the responsible professional, the channels of one
 * send, patients picked from the list or CPFs pasted / imported from a CSV (read here: only the
 * CPFs go to the server). Sent in requests of BULK_SEND_CHUNK rows for a real progress bar; each
 * row's result links to its document, and the failed rows can be tried again.
 */
export function BulkSendPage() {
  const { data: user } = useCurrentUser();
  const canWrite = profileCan(user?.profile, "documents.write");
  const [params] = useSearchParams();
  const formOptions = useDocumentFormOptions(canWrite);
  const options = useBulkSendOptions();
  const send = useBulkSend();

  const [templateVersionId, setTemplateVersionId] = useState("");
  const [titulo, setTitulo] = useState("");
  const [procedimento, setProcedimento] = useState("");
  const [physicianId, setPhysicianId] = useState("");
  const [email, setEmail] = useState(true);
  const [whatsapp, setWhatsapp] = useState(true);
  // Decision 066: SMS off unless chosen, as in one send.
  const [sms, setSms] = useState(false);
  const [allowGaps, setAllowGaps] = useState(false);
  const [picked, setPicked] = useState<PickedPatient[]>([]);
  const [cpfs, setCpfs] = useState<string[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [running, setRunning] = useState<{ done: number; total: number } | null>(null);
  const [outcomes, setOutcomes] = useState<RowOutcome[] | null>(null);
  const [fatal, setFatal] = useState<string | null>(null);
  // The batch's start on the server's clock: a retry then never sends a patient twice (decision 076).
  const [since, setSince] = useState<string | null>(null);

  const templates = useMemo(() => formOptions.data?.templates ?? [], [formOptions.data]);
  const template = templates.find((item) => item.template_version_id === templateVersionId);
  // ?template=<template id> from the template's menu preselects its published version.
  useEffect(() => {
    if (templateVersionId || templates.length === 0) return;
    const wanted = params.get("template");
    const chosen = templates.find((item) => item.template_id === wanted) ?? (wanted ? undefined : templates[0]);
    if (chosen) {
      setTemplateVersionId(chosen.template_version_id);
      setTitulo(chosen.titulo);
    }
  }, [params, templates, templateVersionId]);

  // One row per patient: a pasted CPF of a ticked patient, or pasted twice, is not sent again
  // (the server also refuses a repeated patient, but only within one request of the batch).
  const { rows, skipped } = useMemo(() => {
    const keys = new Set(picked.flatMap((patient) => (patient.cpf ? [`c:${normalizeCpf(patient.cpf)}`] : [])));
    const list: BatchRow[] = picked.map((patient) => ({
      key: `p:${patient.id}`,
      label: patient.nome,
      input: { paciente_id: patient.id },
    }));
    let repeated = 0;
    for (const cpf of cpfs) {
      const digits = normalizeCpf(cpf);
      const key = `c:${digits.length === 11 ? digits : cpf.trim()}`;
      if (keys.has(key)) {
        repeated += 1;
        continue;
      }
      keys.add(key);
      list.push({ key, label: `CPF ${cpf.trim()}`, input: { cpf } });
    }
    return { rows: list, skipped: repeated };
  }, [picked, cpfs]);

  const max = options.data?.max_linhas ?? 200;
  const emailOn = email && options.data?.email_disponivel === true;
  const whatsappOn = whatsapp && options.data?.whatsapp_disponivel === true;
  const smsOn = sms && options.data?.sms_disponivel === true;
  const mustChoose = formOptions.data?.must_choose_physician === true;
  const problems: string[] = [];
  if (!template) problems.push("Escolha o template.");
  if (!titulo.trim()) problems.push("Informe o título dos documentos.");
  if (mustChoose && !physicianId) problems.push("Escolha o profissional responsável.");
  if (!emailOn && !whatsappOn && !smsOn) problems.push("Escolha ao menos um canal de envio.");
  if (rows.length === 0) problems.push("Escolha os pacientes ou cole os CPFs.");
  if (rows.length > max) problems.push(`Envie no máximo ${max} pacientes por lote.`);

  async function run(batch: BatchRow[]) {
    const serverOffset = options.data ? Date.parse(options.data.agora) - options.dataUpdatedAt : 0;
    const loteDesde = since ?? new Date(Date.now() + serverOffset).toISOString();
    setSince(loteDesde);
    setConfirming(false);
    setFatal(null);
    setRunning({ done: 0, total: batch.length });
    const base = {
      template_version_id: templateVersionId,
      titulo: titulo.trim(),
      ...(procedimento.trim() ? { procedimento: procedimento.trim() } : {}),
      ...(mustChoose ? { medico_responsavel_id: physicianId } : {}),
      email: emailOn,
      whatsapp: whatsappOn,
      sms: smsOn,
      lote_desde: loteDesde,
      permitir_pendencias: allowGaps,
    };
    const results = new Map<string, RowOutcome>();
    for (let start = 0; start < batch.length; start += BULK_SEND_CHUNK) {
      const chunk = batch.slice(start, start + BULK_SEND_CHUNK);
      try {
        const answer = await send.mutateAsync({ ...base, linhas: chunk.map((row) => row.input) });
        for (const result of answer.resultados) {
          const row = chunk[result.linha];
          if (row) results.set(row.key, { row, result });
        }
      } catch (error) {
        // The request was refused as a whole: the rows not yet sent stay to be tried again.
        const message = errorMessage(error);
        setFatal(message);
        for (const row of batch.slice(start)) results.set(row.key, { row, result: null, error: message });
        break;
      } finally {
        setRunning({ done: Math.min(start + chunk.length, batch.length), total: batch.length });
      }
    }
    setOutcomes((previous) => {
      const merged = new Map((previous ?? []).map((outcome) => [outcome.row.key, outcome]));
      for (const [key, outcome] of results) merged.set(key, outcome);
      return [...merged.values()];
    });
    setRunning(null);
    const sent = [...results.values()].filter((outcome) => outcome.result?.enviado).length;
    if (sent > 0) toast.success(sent === 1 ? "1 documento enviado" : `${sent} documentos enviados`);
  }

  const failedRows = (outcomes ?? []).filter((outcome) => !outcome.result?.enviado).map((outcome) => outcome.row);

  let body: React.ReactNode;
  if (!canWrite) {
    body = <p className="text-sm text-muted-foreground">Seu perfil não pode criar nem enviar documentos.</p>;
  } else if (formOptions.isPending || options.isPending) {
    body = (
      <div className="grid gap-4" data-testid="bulk-loading">
        <Skeleton className="h-40 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  } else if (formOptions.isError || options.isError) {
    body = (
      <LoadError
        title="Não foi possível abrir o envio em lote"
        message={errorMessage(formOptions.error ?? options.error)}
        onRetry={() => {
          void formOptions.refetch();
          void options.refetch();
        }}
      />
    );
  } else if (options.data?.profissional_antes_do_envio) {
    body = (
      <Alert data-testid="bulk-professional-first">
        <AlertTriangle />
        <AlertTitle>Envio em lote indisponível nesta clínica</AlertTitle>
        <AlertDescription>
          Aqui o profissional assina a declaração antes do envio de cada documento. Crie os documentos um a um em “Novo
          Documento”, ou mude a ordem de assinatura em Configurações.
        </AlertDescription>
      </Alert>
    );
  } else if (templates.length === 0) {
    body = (
      <Alert>
        <AlertTriangle />
        <AlertTitle>Nenhum template publicado</AlertTitle>
        <AlertDescription>
          Publique um template em <Link to="/templates">Templates</Link> para enviar documentos em lote.
        </AlertDescription>
      </Alert>
    );
  } else if (running || outcomes) {
    body = (
      <div className="grid gap-4">
        {running ? (
          <Card data-testid="bulk-progress">
            <CardContent className="grid gap-2 pt-6">
              <p className="flex items-center gap-2 text-sm font-medium">
                <Spinner /> Enviando {running.done} de {running.total}…
              </p>
              <div
                className="h-2 w-full overflow-hidden rounded-full bg-muted"
                role="progressbar"
                aria-label="Progresso do envio em lote"
                aria-valuemin={0}
                aria-valuemax={running.total}
                aria-valuenow={running.done}
              >
                <div
                  className="h-full bg-primary transition-[width]"
                  style={{ width: `${running.total ? (running.done / running.total) * 100 : 0}%` }}
                />
              </div>
              <p className="text-xs text-muted-foreground">Não feche esta tela até o fim do envio.</p>
            </CardContent>
          </Card>
        ) : null}
        {fatal ? (
          <Alert variant="destructive" data-testid="bulk-fatal">
            <OctagonX />
            <AlertTitle>O envio parou</AlertTitle>
            <AlertDescription>{fatal}</AlertDescription>
          </Alert>
        ) : null}
        {outcomes ? <BulkResults outcomes={outcomes} /> : null}
        {outcomes && !running ? (
          <div className="flex flex-col gap-2 sm:flex-row">
            {failedRows.length > 0 ? (
              <Button onClick={() => void run(failedRows)} data-testid="bulk-retry">
                <Send /> Tentar novamente as falhas ({failedRows.length})
              </Button>
            ) : null}
            <Button
              variant="outline"
              onClick={() => {
                setOutcomes(null);
                setFatal(null);
                setSince(null);
                setPicked([]);
                setCpfs([]);
              }}
            >
              Novo lote
            </Button>
            <Button variant="ghost" asChild>
              <Link to="/documents">Ver documentos</Link>
            </Button>
          </div>
        ) : null}
      </div>
    );
  } else {
    body = (
      <div className="grid gap-4">
        <Card>
          <CardHeader>
            <CardTitle>Documento</CardTitle>
            <CardDescription>
              Cada paciente recebe um documento próprio, com o próprio link de assinatura.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <FormField label="Template" htmlFor="bulk-template" required>
              <NativeSelect
                value={templateVersionId}
                onChange={(event) => {
                  setTemplateVersionId(event.target.value);
                  const next = templates.find((item) => item.template_version_id === event.target.value);
                  if (next) setTitulo(next.titulo);
                }}
              >
                {templates.map((item) => (
                  <option key={item.template_version_id} value={item.template_version_id}>
                    {item.titulo} (v{item.version_number})
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField label="Título dos documentos" htmlFor="bulk-titulo" required>
              <Input value={titulo} maxLength={200} onChange={(event) => setTitulo(event.target.value)} />
            </FormField>
            <FormField label="Procedimento" htmlFor="bulk-procedimento" hint="Opcional; o mesmo para todos.">
              <Input value={procedimento} maxLength={200} onChange={(event) => setProcedimento(event.target.value)} />
            </FormField>
            {mustChoose ? (
              <FormField label="Profissional responsável" htmlFor="bulk-profissional" required>
                <NativeSelect value={physicianId} onChange={(event) => setPhysicianId(event.target.value)}>
                  <option value="">Selecione…</option>
                  {(formOptions.data?.physicians ?? []).map((physician) => (
                    <option key={physician.id} value={physician.id}>
                      {physician.nome}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
            ) : null}
            <div className="grid gap-1 sm:col-span-2">
              <div className="flex items-center gap-2">
                <Checkbox
                  id="bulk-gaps"
                  checked={allowGaps}
                  onCheckedChange={(value) => setAllowGaps(value === true)}
                />
                <Label htmlFor="bulk-gaps" className="font-normal">
                  Criar mesmo com variáveis sem valor
                </Label>
              </div>
              <p className="pl-6 text-xs text-muted-foreground">
                Desmarcado, o paciente cujo documento ficaria com lacunas (por exemplo, endereço não cadastrado) aparece
                no resultado com as variáveis que faltam.
              </p>
            </div>
            <fieldset className="grid gap-2 sm:col-span-2">
              <legend className="mb-1 text-sm font-medium">Enviar o link por</legend>
              <div className="flex items-center gap-2">
                <Checkbox
                  id="bulk-email"
                  checked={emailOn}
                  disabled={!options.data?.email_disponivel}
                  onCheckedChange={(value) => setEmail(value === true)}
                />
                <Label htmlFor="bulk-email" className="font-normal">
                  E-mail
                  {!options.data?.email_disponivel ? " (este servidor não envia e-mails)" : ""}
                </Label>
              </div>
              {options.data?.whatsapp_disponivel ? (
                <div className="flex items-center gap-2">
                  <Checkbox
                    id="bulk-whatsapp"
                    checked={whatsappOn}
                    onCheckedChange={(value) => setWhatsapp(value === true)}
                  />
                  <Label htmlFor="bulk-whatsapp" className="font-normal">
                    WhatsApp (celular do cadastro)
                  </Label>
                </div>
              ) : null}
              {options.data?.sms_disponivel ? (
                <div className="flex items-center gap-2">
                  <Checkbox id="bulk-sms" checked={smsOn} onCheckedChange={(value) => setSms(value === true)} />
                  <Label htmlFor="bulk-sms" className="font-normal">
                    SMS (celular do cadastro)
                  </Label>
                </div>
              ) : null}
              <p className="text-xs text-muted-foreground">
                Pacientes sem e-mail nem celular para esses canais aparecem no resultado como “sem canal de envio”; os
                demais são enviados.
                {smsOn
                  ? " Quem não tem celular cadastrado não recebe o SMS, e o resultado diz isso na linha dele."
                  : ""}
              </p>
            </fieldset>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Pacientes</CardTitle>
            <CardDescription>Até {max} por lote.</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs defaultValue="buscar">
              <TabsList className="w-full sm:w-auto">
                <TabsTrigger value="buscar">Buscar pacientes</TabsTrigger>
                <TabsTrigger value="cpfs">Colar ou importar CPFs</TabsTrigger>
              </TabsList>
              <TabsContent value="buscar" className="pt-3">
                <BulkPatientPicker picked={picked} onChange={setPicked} />
              </TabsContent>
              <TabsContent value="cpfs" className="pt-3">
                <BulkCpfImport cpfs={cpfs} onChange={setCpfs} />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>

        <div className="grid gap-2">
          <p className="text-sm text-muted-foreground" data-testid="bulk-summary">
            {picked.length === 1 ? "1 paciente selecionado" : `${picked.length} pacientes selecionados`}
            {cpfs.length > 0 ? ` e ${cpfs.length === 1 ? "1 CPF colado" : `${cpfs.length} CPFs colados`}` : ""}
            {skipped > 0 ? ` (${skipped === 1 ? "1 repetido ignorado" : `${skipped} repetidos ignorados`})` : ""}.
          </p>
          {rows.length > 0 && problems.length > 0 ? (
            <ul className="text-sm text-destructive" data-testid="bulk-problems">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : null}
          <Button
            className="w-full sm:w-fit"
            disabled={problems.length > 0}
            onClick={() => setConfirming(true)}
            data-testid="bulk-submit"
          >
            <Send /> {rows.length === 1 ? "Enviar 1 documento" : `Enviar ${rows.length} documentos`}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Enviar em lote"
        description="Crie e envie um documento para vários pacientes de uma vez, a partir de um template."
      />
      {body}
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>
              {rows.length === 1 ? "Enviar 1 documento?" : `Enviar ${rows.length} documentos?`}
            </AlertDialogTitle>
            <AlertDialogDescription>
              “{titulo.trim()}” será criado e enviado para cada paciente por{" "}
              {channelList([emailOn ? "e-mail" : null, whatsappOn ? "WhatsApp" : null, smsOn ? "SMS" : null])}. Quem não
              puder receber aparece no resultado, sem impedir os demais.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Voltar</AlertDialogCancel>
            <Button onClick={() => void run(rows)} data-testid="bulk-confirm">
              <Send /> Enviar
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
