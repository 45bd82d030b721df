import { zodResolver } from "@hookform/resolvers/zod";
import { Check, Copy, Plus, Webhook } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useCurrentUser } from "@/features/auth";
import { errorMessage } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { formatDateTime } from "@shared/format";
import { profileCan } from "@shared/permissions";
import {
  WEBHOOK_DELIVERY_EVENT_LABEL,
  WEBHOOK_DELIVERY_STATUS_LABEL,
  WEBHOOK_EVENT_LABEL,
  WEBHOOK_EVENTS,
  type WebhookDeliveryView,
  type WebhookEndpointView,
  webhookEndpointInputSchema,
} from "@shared/schemas/webhooks";
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useResendWebhookDelivery,
  useRotateWebhookSecret,
  useSendWebhookTestEvent,
  useUpdateWebhookEndpoint,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from "../api/webhooks-api";

const DELIVERY_VARIANT = {
  delivered: "success",
  pending: "warning",
  sending: "secondary",
  failed: "destructive",
} as const;

/**
 * Configurações → Webhooks (decision 062): the clinic's other systems hear of documents and
 * patients as they change. Each endpoint has a signing secret, shown once; its deliveries are
 * listed with their answer and can be sent again ("Reenviar").
 */
export function WebhooksCard() {
  const { data: user } = useCurrentUser();
  const canManage = profileCan(user?.profile, "settings.manage");
  const endpoints = useWebhookEndpoints(canManage);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string; graceUntil?: string } | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpointView | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpointView | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const remove = useDeleteWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const update = useUpdateWebhookEndpoint();
  if (!canManage) return null;

  async function confirmDelete() {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      toast.success("Endpoint excluído");
      setDeleting(null);
    } catch (error) {
      toast.error("Não foi possível excluir o endpoint", { description: errorMessage(error) });
    }
  }
  async function confirmRotate() {
    if (!rotating) return;
    try {
      const rotated = await rotate.mutateAsync(rotating.id);
      setRotating(null);
      setSecret({
        title: "Novo segredo de assinatura",
        value: rotated.segredo,
        graceUntil: rotated.anterior_valido_ate,
      });
    } catch (error) {
      toast.error("Não foi possível trocar o segredo", { description: errorMessage(error) });
    }
  }
  async function reactivate(endpoint: WebhookEndpointView) {
    try {
      await update.mutateAsync({ id: endpoint.id, input: { ativo: true } });
      toast.success("Endpoint reativado");
    } catch (error) {
      toast.error("Não foi possível reativar o endpoint", { description: errorMessage(error) });
    }
  }

  return (
    <Card className="min-w-0 max-w-3xl" data-testid="webhooks">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="grid gap-1.5">
          <CardTitle className="text-base">Webhooks</CardTitle>
          <CardDescription>
            Avisam outros sistemas da clínica (prontuário, agenda, ERP) quando um documento ou paciente muda. Cada
            endpoint é o endereço (URL) do outro sistema que recebe os avisos. Cada aviso leva só identificadores,
            situação e horários — nunca dados de saúde — e vem assinado com o segredo do endpoint, para que o outro
            sistema confira que veio do Consentir. A equipe técnica encontra como conferir a assinatura na documentação
            da API (guia de integração, seção Webhooks).
          </CardDescription>
        </div>
        <Button onClick={() => setCreating(true)} className="shrink-0">
          <Plus /> Novo endpoint
        </Button>
      </CardHeader>
      <CardContent className="grid gap-4">
        {endpoints.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : endpoints.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar os webhooks.</p>
        ) : endpoints.data.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="webhooks-empty">
            Nenhum endpoint cadastrado.
          </p>
        ) : (
          endpoints.data.map((endpoint) => (
            <section
              key={endpoint.id}
              className="grid min-w-0 gap-3 rounded-md border p-3"
              data-testid="webhook-endpoint"
              aria-label={`Endpoint ${endpoint.url}`}
            >
              <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                <div className="grid min-w-0 gap-1">
                  <code className="break-all text-sm font-medium" data-testid="webhook-url">
                    {endpoint.url}
                  </code>
                  {endpoint.descricao ? (
                    <span className="text-sm text-muted-foreground">{endpoint.descricao}</span>
                  ) : null}
                  <span className="text-xs text-muted-foreground">
                    {endpoint.eventos.map((e) => WEBHOOK_EVENT_LABEL[e]).join(" · ")}
                  </span>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-2">
                  {endpoint.ativo ? (
                    endpoint.falhando_desde ? (
                      <Badge variant="warning">Falhando desde {formatDateTime(endpoint.falhando_desde)}</Badge>
                    ) : (
                      <Badge variant="success">Ativo</Badge>
                    )
                  ) : (
                    <Badge variant="destructive" data-testid="webhook-disabled">
                      Desativado
                    </Badge>
                  )}
                </div>
              </div>
              {endpoint.segredo_anterior_ate ? (
                <p className="text-xs text-muted-foreground" data-testid="webhook-secret-grace">
                  Segredo trocado: até {formatDateTime(endpoint.segredo_anterior_ate)} os avisos levam a assinatura do
                  segredo novo e a do anterior.
                </p>
              ) : null}
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="outline"
                  size="sm"
                  aria-expanded={open === endpoint.id}
                  onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)}
                >
                  {open === endpoint.id ? "Ocultar entregas" : "Ver entregas"}
                </Button>
                {endpoint.ativo ? (
                  <TestEventButton endpointId={endpoint.id} onSent={() => setOpen(endpoint.id)} />
                ) : (
                  <Button variant="outline" size="sm" onClick={() => void reactivate(endpoint)}>
                    Reativar
                  </Button>
                )}
                <Button variant="outline" size="sm" onClick={() => setRotating(endpoint)}>
                  Trocar segredo
                </Button>
                <Button variant="outline" size="sm" onClick={() => setDeleting(endpoint)}>
                  Excluir
                </Button>
              </div>
              {open === endpoint.id ? <Deliveries endpoint={endpoint} /> : null}
            </section>
          ))
        )}
      </CardContent>
      <CreateEndpointDialog
        open={creating}
        onOpenChange={setCreating}
        onCreated={(value) => setSecret({ title: "Endpoint criado", value })}
      />
      <SecretDialog secret={secret} onDone={() => setSecret(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(next) => !next && setDeleting(null)}
        title="Excluir este endpoint?"
        description={
          deleting ? `${deleting.url} deixa de receber eventos e o registro das suas entregas é apagado.` : ""
        }
        confirmLabel="Excluir endpoint"
        onConfirm={() => void confirmDelete()}
        pending={remove.isPending}
      />
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(next) => !next && setRotating(null)}
        title="Trocar o segredo de assinatura?"
        description="Um segredo novo é criado e mostrado uma única vez. Por 24 horas os avisos levam as duas assinaturas (a do segredo atual e a do novo), para dar tempo de configurar o novo no sistema que recebe os eventos; depois, só a do novo."
        confirmLabel="Trocar segredo"
        onConfirm={() => void confirmRotate()}
        pending={rotate.isPending}
      />
    </Card>
  );
}

/** "Enviar evento de teste": a signed test delivery, shown in the log at once. */
function TestEventButton({ endpointId, onSent }: { endpointId: string; onSent: () => void }) {
  const send = useSendWebhookTestEvent(endpointId);
  async function sendTest() {
    try {
      await send.mutateAsync();
      onSent();
      toast.success("Evento de teste enviado", {
        description: "A resposta do outro sistema aparece na lista de entregas em instantes.",
      });
    } catch (error) {
      toast.error("Não foi possível enviar o evento de teste", { description: errorMessage(error) });
    }
  }
  return (
    <Button variant="outline" size="sm" disabled={send.isPending} onClick={() => void sendTest()}>
      Enviar evento de teste
    </Button>
  );
}

/** What the other system answered, in words first; the HTTP code and time below it. */
function deliveryAnswer(delivery: WebhookDeliveryView): { main: string; detail: string | null } {
  const detail =
    [
      delivery.ultimo_status_http !== null ? `HTTP ${delivery.ultimo_status_http}` : null,
      delivery.ultima_duracao_ms !== null ? `${delivery.ultima_duracao_ms} ms` : null,
    ]
      .filter(Boolean)
      .join(" · ") || null;
  // "Resposta HTTP 500": the code is already in the detail line; say what it means.
  if (delivery.ultimo_erro && delivery.ultimo_erro === `Resposta HTTP ${delivery.ultimo_status_http}`)
    return { main: "O outro sistema respondeu com erro", detail };
  if (delivery.ultimo_erro) return { main: delivery.ultimo_erro, detail };
  if (delivery.status === "delivered") return { main: "Recebido", detail };
  return { main: "—", detail };
}

function Deliveries({ endpoint }: { endpoint: WebhookEndpointView }) {
  const deliveries = useWebhookDeliveries(endpoint.id);
  const resend = useResendWebhookDelivery(endpoint.id);
  async function resendOne(delivery: WebhookDeliveryView) {
    try {
      await resend.mutateAsync(delivery.id);
      toast.success("Entrega reenviada", { description: "Uma nova tentativa sai em instantes." });
    } catch (error) {
      toast.error("Não foi possível reenviar", { description: errorMessage(error) });
    }
  }
  const resendButton = (delivery: WebhookDeliveryView) => (
    <Button
      variant="outline"
      size="sm"
      disabled={!endpoint.ativo || delivery.status === "sending" || resend.isPending}
      onClick={() => void resendOne(delivery)}
    >
      Reenviar
    </Button>
  );
  if (deliveries.isPending) return <Skeleton className="h-12 w-full" />;
  if (deliveries.isError) return <p className="text-sm text-destructive">Não foi possível carregar as entregas.</p>;
  if (deliveries.data.length === 0)
    return (
      <p className="text-sm text-muted-foreground" data-testid="webhook-deliveries-empty">
        Nenhuma entrega ainda. Os eventos escolhidos aparecem aqui quando acontecerem.
      </p>
    );
  return (
    <div className="min-w-0">
      <Table aria-label="Entregas">
        <TableHeader>
          <TableRow>
            <TableHead>Evento</TableHead>
            <TableHead>Situação</TableHead>
            <TableHead>Resposta</TableHead>
            <TableHead className="hidden sm:table-cell">
              <span className="sr-only">Ações</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {deliveries.data.map((delivery) => (
            <TableRow key={delivery.id} data-testid="webhook-delivery">
              <TableCell className="whitespace-normal text-sm">
                {WEBHOOK_DELIVERY_EVENT_LABEL[delivery.evento]}
                <span className="block text-xs text-muted-foreground">{formatDateTime(delivery.criado_em)}</span>
                {/* On a phone the button sits here, so the table needs no sideways scroll. */}
                <div className="mt-2 sm:hidden">{resendButton(delivery)}</div>
              </TableCell>
              <TableCell className="text-sm">
                <Badge variant={DELIVERY_VARIANT[delivery.status]} data-testid="webhook-delivery-status">
                  {WEBHOOK_DELIVERY_STATUS_LABEL[delivery.status]}
                </Badge>
                <span className="block text-xs text-muted-foreground">
                  <span data-testid="webhook-delivery-attempts">{delivery.tentativas}</span>{" "}
                  {delivery.tentativas === 1 ? "tentativa" : "tentativas"}
                </span>
                {delivery.status === "pending" && delivery.proxima_tentativa_em ? (
                  <span className="block text-xs text-muted-foreground">
                    próxima: {formatDateTime(delivery.proxima_tentativa_em)}
                  </span>
                ) : null}
              </TableCell>
              <TableCell className="whitespace-normal text-sm" data-testid="webhook-delivery-answer">
                {deliveryAnswer(delivery).main}
                {deliveryAnswer(delivery).detail ? (
                  <span className="block text-xs text-muted-foreground">{deliveryAnswer(delivery).detail}</span>
                ) : null}
              </TableCell>
              <TableCell className="hidden text-right sm:table-cell">{resendButton(delivery)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <p className="mt-2 text-xs text-muted-foreground">
        Resposta: o que o outro sistema devolveu. Um código HTTP 2xx quer dizer recebido; qualquer outro código, ou
        nenhuma resposta, é uma falha, e o Consentir tenta de novo por até três dias (o evento de teste, uma vez só).
        Reenviar manda o mesmo aviso agora.
      </p>
    </div>
  );
}

type Values = z.input<typeof webhookEndpointInputSchema>;

function CreateEndpointDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (secret: string) => void;
}) {
  const create = useCreateWebhookEndpoint();
  const [formError, setFormError] = useState<string | null>(null);
  const defaults: Values = { url: "", descricao: "", eventos: [...WEBHOOK_EVENTS] };
  const form = useForm<Values, unknown, z.output<typeof webhookEndpointInputSchema>>({
    resolver: zodResolver(webhookEndpointInputSchema),
    defaultValues: defaults,
  });
  const { register, handleSubmit, formState, reset, setError } = form;

  useEffect(() => {
    if (open) {
      reset({ url: "", descricao: "", eventos: [...WEBHOOK_EVENTS] });
      setFormError(null);
    }
  }, [open, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const created = await create.mutateAsync(values);
      onOpenChange(false);
      onCreated(created.segredo);
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ["url", "descricao", "eventos"]));
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !formState.isSubmitting && onOpenChange(next)}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Novo endpoint de webhook</DialogTitle>
          <DialogDescription>
            A cada evento escolhido, o Consentir manda um aviso assinado (uma mensagem JSON) a este endereço do outro
            sistema. Em produção, só endereços https://.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Novo endpoint de webhook">
          <FormErrorAlert message={formError} />
          <FormField label="URL" htmlFor="webhook-url" required error={formState.errors.url?.message}>
            <Input
              {...register("url")}
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://sistema.exemplo.com.br/consentir/webhook"
            />
          </FormField>
          <FormField
            label="Descrição (opcional)"
            htmlFor="webhook-descricao"
            hint="Para reconhecer o endpoint, ex.: Prontuário eletrônico"
            error={formState.errors.descricao?.message}
          >
            <Input {...register("descricao")} autoComplete="off" maxLength={200} />
          </FormField>
          <fieldset className="grid gap-2" aria-describedby="webhook-eventos-erro">
            <legend className="mb-1 text-sm font-medium">Eventos</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              {WEBHOOK_EVENTS.map((event) => (
                <label key={event} className="flex items-center gap-2 text-sm">
                  <input type="checkbox" value={event} className="size-4 accent-primary" {...register("eventos")} />
                  {WEBHOOK_EVENT_LABEL[event]}
                </label>
              ))}
            </div>
            {formState.errors.eventos?.message ? (
              <p id="webhook-eventos-erro" className="text-sm text-destructive" role="alert">
                {formState.errors.eventos.message}
              </p>
            ) : null}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancelar
            </Button>
            <SubmitButton pending={formState.isSubmitting}>Criar endpoint</SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function SecretDialog({
  secret,
  onDone,
}: {
  secret: { title: string; value: string; graceUntil?: string } | null;
  onDone: () => void;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [secret]);
  async function copy() {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret.value);
      setCopied(true);
      toast.success("Segredo copiado");
    } catch {
      toast.error("Não foi possível copiar: selecione o segredo e copie manualmente.");
    }
  }
  return (
    <Dialog open={secret !== null} onOpenChange={(next) => !next && onDone()}>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <Webhook className="size-5 text-primary" aria-hidden /> {secret?.title}
          </DialogTitle>
          <DialogDescription>
            Copie o segredo de assinatura agora e configure-o no sistema que recebe os eventos: ele não será mostrado de
            novo. Com ele, o outro sistema confere que cada aviso veio mesmo do Consentir. Se perdê-lo, troque o
            segredo.
          </DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <label htmlFor="webhook-secret" className="text-sm font-medium">
            Segredo de assinatura
          </label>
          <div className="flex gap-2">
            <Input
              id="webhook-secret"
              readOnly
              value={secret?.value ?? ""}
              className="font-mono text-xs"
              onFocus={(event) => event.currentTarget.select()}
              data-testid="webhook-secret"
            />
            <Button type="button" variant="outline" onClick={() => void copy()} aria-label="Copiar segredo">
              {copied ? <Check /> : <Copy />} {copied ? "Copiado" : "Copiar"}
            </Button>
          </div>
          {secret?.graceUntil ? (
            <p className="text-sm text-muted-foreground" data-testid="webhook-secret-grace-note">
              O segredo anterior continua valendo até {formatDateTime(secret.graceUntil)}: até lá os avisos levam as
              duas assinaturas.
            </p>
          ) : null}
        </div>
        <DialogFooter>
          <Button type="button" onClick={onDone}>
            Concluir
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
