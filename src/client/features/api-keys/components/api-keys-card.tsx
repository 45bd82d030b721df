import { zodResolver } from "@hookform/resolvers/zod";
import { Check, Copy, KeyRound, Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { NativeSelect } from "@/components/form/native-select";
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
import { dateInSaoPaulo } from "@shared/dates/sao-paulo";
import { formatCalendarDate, formatDateTime } from "@shared/format";
import { profileCan, ROLE_LABEL, type Role } from "@shared/permissions";
import {
  API_KEY_ROLES,
  API_KEY_STATUS_LABEL,
  type ApiKeyView,
  apiKeyInputSchema,
  type CreatedApiKey,
  roleWithinCreator,
} from "@shared/schemas/api-keys";
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from "../api/api-keys-api";

const STATUS_VARIANT = { ativa: "success", expirada: "warning", revogada: "secondary" } as const;

/**
 * Configurações → Chaves de API (decision 058): other systems of the clinic call the API with
 * `Authorization: Bearer <chave>`, acting as the role chosen here. The secret is shown once.
 */
export function ApiKeysCard() {
  const { data: user } = useCurrentUser();
  const canManage = profileCan(user?.profile, "settings.manage");
  const keys = useApiKeys(canManage);
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const revoke = useRevokeApiKey();
  if (!canManage) return null;

  async function confirmRevoke() {
    if (!revoking) return;
    try {
      await revoke.mutateAsync(revoking.id);
      toast.success("Chave revogada", { description: `${revoking.nome} deixa de funcionar agora.` });
      setRevoking(null);
    } catch (error) {
      toast.error("Não foi possível revogar a chave", { description: errorMessage(error) });
    }
  }

  return (
    <Card className="min-w-0 max-w-3xl" data-testid="api-keys">
      <CardHeader className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="grid gap-1.5">
          <CardTitle className="text-base">Chaves de API</CardTitle>
          <CardDescription>
            Para outros sistemas da clínica usarem a API do Consentir (cabeçalho{" "}
            <code className="text-xs">Authorization: Bearer</code>). Cada chave age com o papel escolhido, só nos dados
            desta clínica, e aparece uma única vez ao ser criada.
          </CardDescription>
        </div>
        <Button onClick={() => setCreating(true)} className="shrink-0">
          <Plus /> Nova chave
        </Button>
      </CardHeader>
      <CardContent>
        {keys.isPending ? (
          <Skeleton className="h-16 w-full" />
        ) : keys.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar as chaves.</p>
        ) : keys.data.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="api-keys-empty">
            Nenhuma chave criada.
          </p>
        ) : (
          <div className="min-w-0">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Nome</TableHead>
                  <TableHead>Papel</TableHead>
                  <TableHead>Criada</TableHead>
                  <TableHead>Último uso</TableHead>
                  <TableHead>Situação</TableHead>
                  <TableHead className="sr-only">Ações</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {keys.data.map((key) => (
                  <TableRow key={key.id} data-testid="api-key-row">
                    <TableCell className="whitespace-normal">
                      <span className="font-medium">{key.nome}</span>
                      <code className="block whitespace-nowrap text-xs text-muted-foreground">{key.prefixo}…</code>
                    </TableCell>
                    <TableCell>{ROLE_LABEL[key.role as Role] ?? key.role}</TableCell>
                    <TableCell className="whitespace-normal text-sm">
                      {formatDateTime(key.criada_em)}
                      <span className="block text-muted-foreground">por {key.criada_por.nome}</span>
                    </TableCell>
                    <TableCell className="whitespace-normal text-sm" data-testid="api-key-last-use">
                      {key.ultimo_uso_em ? formatDateTime(key.ultimo_uso_em) : "Nunca"}
                    </TableCell>
                    <TableCell className="text-sm">
                      <Badge variant={STATUS_VARIANT[key.status]} data-testid="api-key-status">
                        {API_KEY_STATUS_LABEL[key.status]}
                      </Badge>
                      <span className="block text-muted-foreground">
                        {key.expira_em ? `até ${formatCalendarDate(key.expira_em)}` : "sem validade"}
                      </span>
                    </TableCell>
                    <TableCell className="text-right">
                      {key.status === "revogada" ? null : (
                        <Button variant="outline" size="sm" onClick={() => setRevoking(key)}>
                          Revogar
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </div>
        )}
      </CardContent>
      <CreateApiKeyDialog
        open={creating}
        onOpenChange={setCreating}
        creator={{ role: user?.profile?.role ?? "", isOwner: user?.profile?.is_proprietario ?? false }}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title="Revogar esta chave?"
        description={
          revoking
            ? `A chave “${revoking.nome}” (${revoking.prefixo}…) deixa de funcionar imediatamente: os sistemas que a usam passam a receber erro 401. Isto não pode ser desfeito.`
            : ""
        }
        confirmLabel="Revogar chave"
        onConfirm={() => void confirmRevoke()}
        pending={revoke.isPending}
      />
    </Card>
  );
}

type Values = z.input<typeof apiKeyInputSchema>;

function CreateApiKeyDialog({
  open,
  onOpenChange,
  creator,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  creator: { role: string; isOwner: boolean };
}) {
  const create = useCreateApiKey();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const roles = API_KEY_ROLES.filter((role) => roleWithinCreator(creator, role));
  // The front desk's role: enough for most integrations (patients and documents), no deletes.
  const defaultRole = roles.includes("atendente") ? "atendente" : roles[0];
  const form = useForm<Values, unknown, z.output<typeof apiKeyInputSchema>>({
    resolver: zodResolver(apiKeyInputSchema),
    defaultValues: { nome: "", role: defaultRole, expira_em: null },
  });
  const { register, handleSubmit, formState, reset, setError } = form;

  useEffect(() => {
    if (open) {
      reset({ nome: "", role: defaultRole, expira_em: null });
      setCreated(null);
      setFormError(null);
    }
  }, [open, reset, defaultRole]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      setCreated(await create.mutateAsync(values));
    } catch (error) {
      setFormError(applyServerErrors(error, setError, ["nome", "role", "expira_em"]));
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !formState.isSubmitting && onOpenChange(next)}>
      <DialogContent className="sm:max-w-xl">
        {created ? (
          <CreatedKey created={created} onDone={() => onOpenChange(false)} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Nova chave de API</DialogTitle>
              <DialogDescription>
                A chave age com as permissões do papel escolhido — nunca acima das suas — e só nos dados desta clínica.
              </DialogDescription>
            </DialogHeader>
            <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Nova chave de API">
              <FormErrorAlert message={formError} />
              <FormField
                label="Nome"
                htmlFor="api-key-nome"
                required
                hint="Para reconhecer quem usa a chave, ex.: Sistema da recepção"
                error={formState.errors.nome?.message}
              >
                <Input {...register("nome")} autoComplete="off" maxLength={100} />
              </FormField>
              <FormField label="Papel" htmlFor="api-key-role" required error={formState.errors.role?.message}>
                <NativeSelect {...register("role")}>
                  {roles.map((role) => (
                    <option key={role} value={role}>
                      {ROLE_LABEL[role]}
                    </option>
                  ))}
                </NativeSelect>
              </FormField>
              <FormField
                label="Válida até (opcional)"
                htmlFor="api-key-expira"
                hint="Último dia em que a chave funciona. Em branco: sem validade."
                error={formState.errors.expira_em?.message}
              >
                <Input
                  type="date"
                  min={dateInSaoPaulo(new Date())}
                  {...register("expira_em", { setValueAs: (value: string) => (value ? value : null) })}
                />
              </FormField>
              <DialogFooter>
                <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                  Cancelar
                </Button>
                <SubmitButton pending={formState.isSubmitting}>Criar chave</SubmitButton>
              </DialogFooter>
            </form>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function CreatedKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(created.segredo);
      setCopied(true);
      toast.success("Chave copiada");
    } catch {
      toast.error("Não foi possível copiar: selecione a chave e copie manualmente.");
    }
  }
  return (
    <>
      <DialogHeader>
        <DialogTitle className="flex items-center gap-2">
          <KeyRound className="size-5 text-primary" aria-hidden /> Chave criada
        </DialogTitle>
        <DialogDescription>
          Copie e guarde a chave agora, num cofre de senhas ou na configuração do outro sistema: ela não será mostrada
          de novo. Se perdê-la, revogue esta e crie outra.
        </DialogDescription>
      </DialogHeader>
      <div className="grid gap-2">
        <label htmlFor="api-key-secret" className="text-sm font-medium">
          {created.chave.nome}
        </label>
        <div className="flex gap-2">
          <Input
            id="api-key-secret"
            readOnly
            value={created.segredo}
            className="font-mono text-xs"
            onFocus={(event) => event.currentTarget.select()}
            data-testid="api-key-secret"
          />
          <Button type="button" variant="outline" onClick={() => void copy()} aria-label="Copiar chave">
            {copied ? <Check /> : <Copy />} {copied ? "Copiada" : "Copiar"}
          </Button>
        </div>
      </div>
      <DialogFooter>
        <Button type="button" onClick={onDone}>
          Concluir
        </Button>
      </DialogFooter>
    </>
  );
}
