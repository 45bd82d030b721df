import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound, PlugZap, ShieldX } from "lucide-react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Spinner } from "@/components/ui/spinner";
import { Switch } from "@/components/ui/switch";
import { useCurrentUser } from "@/features/auth";
import { ApiError, errorMessage } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import {
  FEEGOW_FEATURE_LABEL,
  FEEGOW_FEATURES,
  FEEGOW_MESSAGES,
  type FeegowFeature,
  type FeegowSettings,
} from "@shared/schemas/feegow";
import { text } from "@shared/schemas/safe-input";
import { useFeegowSettings, useSaveFeegowSettings, useTestFeegowConnection } from "../api/feegow-api";
import { FeegowProceduresCard } from "./feegow-procedures-card";
import { FeegowProfessionalsCard } from "./feegow-professionals-card";
import { FeegowStatusBadge } from "./feegow-status-badge";
import { RemoveTokenButton } from "./remove-token-button";
import { formatDateTime } from "@shared/format";

/** /integration (spec part 2 §2 "Clinic-system integration"): owner and administrators. */
export function IntegrationPage() {
  const { data: user, isPending } = useCurrentUser();
  const canManage = profileCan(user?.profile, "integration.manage");
  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader title="Integração" description="Conecte o Consentir ao Feegow, o sistema de gestão da clínica." />
      {isPending ? (
        <Skeleton className="h-40 w-full max-w-3xl" />
      ) : !canManage ? (
        <EmptyState
          className="max-w-3xl"
          icon={<ShieldX />}
          title="Acesso negado"
          description="Somente o proprietário da clínica ou um administrador pode configurar a integração com o Feegow."
        />
      ) : (
        <FeegowSettingsView />
      )}
    </div>
  );
}

function FeegowSettingsView() {
  const settings = useFeegowSettings();
  const { data: user } = useCurrentUser();
  if (settings.isPending) return <Skeleton className="h-64 w-full max-w-3xl" />;
  if (settings.isError) {
    return (
      <Alert variant="destructive" className="max-w-3xl">
        <AlertTitle>Não foi possível carregar a integração</AlertTitle>
        <AlertDescription>{errorMessage(settings.error)}</AlertDescription>
      </Alert>
    );
  }
  return (
    <div className="grid max-w-3xl gap-6">
      <ConnectionCard settings={settings.data} />
      <FeaturesCard settings={settings.data} />
      {settings.data.configurado && settings.data.integrations.procedures ? <FeegowProceduresCard /> : null}
      {settings.data.configurado && settings.data.integrations.professionals ? (
        <FeegowProfessionalsCard
          isOwner={user?.profile.is_proprietario === true}
          isEstablishment={user?.tenant.tipo_perfil === "estabelecimento"}
        />
      ) : null}
      <HelpCard />
    </div>
  );
}

const tokenFormSchema = z.object({ token: text().trim().min(1, FEEGOW_MESSAGES.tokenRequired) });

function ConnectionCard({ settings }: { settings: FeegowSettings }) {
  const save = useSaveFeegowSettings();
  const testConnection = useTestFeegowConnection();
  const form = useForm<z.input<typeof tokenFormSchema>, unknown, z.output<typeof tokenFormSchema>>({
    resolver: zodResolver(tokenFormSchema),
    defaultValues: { token: "" },
  });
  const { register, handleSubmit, formState, reset, setError } = form;

  const onSubmit = handleSubmit(async ({ token }) => {
    try {
      await save.mutateAsync({ token });
      reset({ token: "" });
      toast.success(FEEGOW_MESSAGES.saved, { description: "Token salvo. Agora clique em Testar conexão." });
    } catch (error) {
      const issue = error instanceof ApiError ? error.issues.find((i) => i.path === "token") : undefined;
      if (issue) setError("token", { type: "server", message: issue.message }, { shouldFocus: true });
      toast.error(FEEGOW_MESSAGES.saveError(errorMessage(error)));
    }
  });

  async function runTest() {
    if (!settings.configurado) {
      toast.error(FEEGOW_MESSAGES.tokenMissing, { description: "Salve o token do Feegow antes de testar a conexão." });
      return;
    }
    try {
      const result = await testConnection.mutateAsync();
      toast.success(FEEGOW_MESSAGES.connected, { description: result.message });
    } catch (error) {
      toast.error(FEEGOW_MESSAGES.connectionError, { description: errorMessage(error) });
    }
  }

  return (
    <Card data-testid="feegow-connection">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2 text-base">
            <PlugZap className="size-4 text-primary" aria-hidden /> Feegow
          </CardTitle>
          <FeegowStatusBadge status={settings.status} />
        </div>
        <CardDescription>
          Sistema de gestão da clínica: pacientes, profissionais, procedimentos e prontuário.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="text-muted-foreground">Token</dt>
          <dd data-testid="feegow-token-saved">
            {settings.configurado ? (
              <span className="font-mono">{settings.token_mascarado}</span>
            ) : (
              "Nenhum token salvo"
            )}
          </dd>
          <dt className="text-muted-foreground">Última sincronização</dt>
          <dd data-testid="feegow-last-sync">{settings.last_sync ? formatDateTime(settings.last_sync) : "Nunca"}</dd>
        </dl>

        {settings.status === "error" && settings.ultimo_erro ? (
          <Alert variant="destructive" data-testid="feegow-last-error">
            <AlertTitle>{FEEGOW_MESSAGES.connectionError}</AlertTitle>
            <AlertDescription>{settings.ultimo_erro}</AlertDescription>
          </Alert>
        ) : null}

        <form onSubmit={onSubmit} noValidate className="grid gap-3" aria-label="Token do Feegow">
          <FormField
            label="Token de acesso à API do Feegow"
            htmlFor="feegow-token"
            error={formState.errors.token?.message}
            hint={
              settings.configurado
                ? `Token salvo (${settings.token_mascarado}). Para trocar, cole o novo token e clique em Atualizar token.`
                : "O token fica guardado criptografado e nunca é exibido de novo — só os 4 últimos caracteres."
            }
          >
            <Input
              {...register("token")}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              placeholder={
                settings.configurado ? `${settings.token_mascarado} (salvo)` : "Cole aqui o token gerado no Feegow"
              }
            />
          </FormField>
          <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
            {settings.configurado ? <RemoveTokenButton /> : null}
            <Button type="button" variant="outline" onClick={() => void runTest()} disabled={testConnection.isPending}>
              {testConnection.isPending ? <Spinner /> : <KeyRound aria-hidden />} Testar conexão
            </Button>
            <SubmitButton pending={formState.isSubmitting}>
              {settings.configurado ? "Atualizar token" : "Salvar token"}
            </SubmitButton>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

function FeaturesCard({ settings }: { settings: FeegowSettings }) {
  const save = useSaveFeegowSettings();
  const usable = settings.configurado && settings.status === "connected";

  async function change(feature: FeegowFeature, value: boolean) {
    try {
      await save.mutateAsync({ integrations: { [feature]: value } });
      toast.success(FEEGOW_MESSAGES.saved);
    } catch (error) {
      toast.error(FEEGOW_MESSAGES.saveError(errorMessage(error)));
    }
  }

  return (
    <Card data-testid="feegow-features">
      <CardHeader>
        <CardTitle className="text-base">Funcionalidades</CardTitle>
        <CardDescription>
          {usable
            ? "Escolha o que a clínica usa do Feegow."
            : "Salve o token e teste a conexão com sucesso para ativar as funcionalidades."}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {FEEGOW_FEATURES.map((feature) => {
          const label = FEEGOW_FEATURE_LABEL[feature];
          const id = `feegow-feature-${feature}`;
          return (
            <div key={feature} className="flex items-start justify-between gap-4 rounded-md border p-3">
              <div className="grid gap-1">
                <Label htmlFor={id} className="flex flex-wrap items-center gap-2">
                  {label.title}
                  {label.soon ? <Badge variant="outline">Em breve</Badge> : null}
                </Label>
                <p id={`${id}-hint`} className="text-sm text-muted-foreground">
                  {label.description}
                </p>
              </div>
              <Switch
                id={id}
                aria-describedby={`${id}-hint`}
                checked={settings.integrations[feature]}
                onCheckedChange={(value) => void change(feature, value)}
                disabled={!usable || save.isPending}
                className="mt-0.5"
              />
            </div>
          );
        })}
      </CardContent>
    </Card>
  );
}

function HelpCard() {
  return (
    <Card data-testid="feegow-help">
      <CardHeader>
        <CardTitle className="text-base">Como usar</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm text-muted-foreground">
        <ol className="grid list-decimal gap-1.5 pl-5">
          <li>No Feegow, gere um token de acesso à API da clínica.</li>
          <li>
            Cole o token acima e clique em Salvar token. Ele fica guardado criptografado; só os 4 últimos caracteres
            aparecem aqui.
          </li>
          <li>Clique em Testar conexão. Com a conexão estabelecida, as funcionalidades podem ser ativadas.</li>
          <li>
            Com <strong className="text-foreground">Pacientes</strong> ativado, o botão Buscar no Feegow aparece ao lado
            do CPF no cadastro de novo paciente e preenche o formulário com os dados do Feegow.
          </li>
          <li>
            Com <strong className="text-foreground">Procedimentos</strong> ativado, a lista do Feegow aparece abaixo:
            importe um a um ou todos. O valor vem do Feegow; importar de novo atualiza os valores, sem duplicar.
          </li>
          <li>
            Com <strong className="text-foreground">Profissionais</strong> ativado, o proprietário importa os
            profissionais ativos do Feegow como usuários, convidados por e-mail.
          </li>
          <li>
            Com <strong className="text-foreground">Envio de arquivos</strong> ativado, o PDF assinado de cada documento
            vai sozinho ao prontuário do paciente no Feegow, e Gerar e Enviar PDF (na lista de documentos) envia o PDF
            atual. Um envio que falha não perde o PDF: ele continua no Consentir e pode ser tentado de novo.
          </li>
        </ol>
        <p>Para trocar o token, salve o novo e teste a conexão. Remover token desconecta e desliga tudo.</p>
        <p className="text-foreground">{FEEGOW_MESSAGES.establishmentsOnly}</p>
      </CardContent>
    </Card>
  );
}
