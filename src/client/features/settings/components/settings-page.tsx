import { FilePen, KeyRound, MailCheck, ShieldAlert } from "lucide-react";
import { useId } from "react";
import { toast } from "sonner";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { ApiKeysCard } from "@/features/api-keys";
import { WebhooksCard } from "@/features/webhooks";
import { useCurrentUser } from "@/features/auth";
import { ApiError } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { SETTINGS_MESSAGES } from "@shared/schemas/clinic-settings";
import { PROFESSIONAL_ORDER_LABELS, PROFESSIONAL_ORDERS, type ProfessionalOrder } from "@shared/signing-rules";
import {
  type SigningSettings,
  signingLevelNotice,
  useSaveSigningSettings,
  useSigningSettings,
} from "../api/settings-api";

/** What each choice means at the desk (decision 050). */
const ORDER_HINTS: Record<ProfessionalOrder, string> = {
  antes_do_envio: "O documento só pode ser enviado ao paciente depois que o profissional assinar.",
  depois_do_paciente: "O documento é enviado logo; o profissional assina depois que o paciente assinar.",
  qualquer_ordem:
    "O documento é enviado logo; paciente e profissional assinam na ordem em que puderem. Ele fica concluído com a última assinatura.",
};
import { ClinicDataCard } from "./clinic-data-card";
import { ClinicExportCard } from "./clinic-export-card";
import { ClinicLogoCard } from "./clinic-logo-card";
import { ReminderSettingsCard } from "./reminder-settings-card";
import { EmbedSettingsCard } from "./embed-settings-card";

export { SETTINGS_MESSAGES };

/**
 * /settings (Configurações), the owner's and administrators': the clinic's data and
 * document validity, its logo, and the signing options. Anyone else sees 'Acesso negado' (the API says 403).
 */
export function SettingsPage() {
  const { data: user } = useCurrentUser();
  if (user && !profileCan(user.profile, "settings.manage")) {
    return (
      <div className="grid gap-6">
        <PageHeader title="Configurações" />
        <Card className="p-6">
          <EmptyState
            icon={<ShieldAlert />}
            title={SETTINGS_MESSAGES.accessDenied}
            description={SETTINGS_MESSAGES.managersOnly}
          />
        </Card>
      </div>
    );
  }
  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader title="Configurações" description="Dados e preferências da clínica" />
      <ClinicDataCard />
      <ClinicLogoCard />
      <SigningSettingsCard />
      <ReminderSettingsCard canManage={profileCan(user?.profile, "settings.manage")} />
      <ClinicExportCard />
      <ApiKeysCard />
      <WebhooksCard />
      <EmbedSettingsCard canManage={profileCan(user?.profile, "settings.manage")} />
    </div>
  );
}

function SigningSettingsCard() {
  const { data: user } = useCurrentUser();
  const profile = user?.profile;
  const canManage = profileCan(profile, "settings.manage");
  const settings = useSigningSettings();
  const save = useSaveSigningSettings();
  const switchId = useId();

  async function change(input: Partial<SigningSettings>) {
    try {
      await save.mutateAsync(input);
      toast.success(SETTINGS_MESSAGES.saved);
    } catch (error) {
      toast.error(SETTINGS_MESSAGES.saveError(error instanceof ApiError ? error.message : "erro inesperado"));
    }
  }

  return (
    <Card className="max-w-3xl" data-testid="signing-settings">
      <CardHeader>
        <CardTitle className="text-base">Assinatura</CardTitle>
        <CardDescription>Como os pacientes assinam pelo link recebido.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        {settings.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : settings.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar as configurações.</p>
        ) : (
          <div className="flex items-start justify-between gap-4">
            <div className="grid gap-1">
              <Label htmlFor={switchId} className="flex items-center gap-2">
                <MailCheck className="size-4 text-primary" aria-hidden /> Exigir código por e-mail antes de assinar
              </Label>
              <p className="text-sm text-muted-foreground">
                O paciente recebe um código de 6 dígitos no e-mail cadastrado e o digita antes de ver o documento
                completo e assinar: é o que torna a assinatura <strong>avançada</strong> (Lei 14.063/2020). Sem o
                código, os documentos são assinatura eletrônica simples.
              </p>
              <SigningLevelLine settings={settings.data} />
              {!settings.data.email_configurado ? (
                <p className="text-sm text-amber-700 dark:text-amber-400" data-testid="email-not-configured">
                  O envio de e-mail não está configurado neste servidor (SMTP): os e-mails ficam na caixa de saída e não
                  chegam aos pacientes.
                </p>
              ) : null}
              {!canManage ? <p className="text-xs text-muted-foreground">{SETTINGS_MESSAGES.managersOnly}</p> : null}
            </div>
            <Switch
              id={switchId}
              checked={settings.data.codigo_email}
              onCheckedChange={(value) => void change({ codigo_email: value })}
              disabled={!canManage || save.isPending}
              className="mt-0.5"
            />
          </div>
        )}
        {settings.data ? (
          <div
            className="mt-4 flex items-start justify-between gap-4 border-t pt-4"
            data-testid="professional-code-setting"
          >
            <div className="grid gap-1">
              <Label htmlFor={`${switchId}-professional-code`} className="flex items-center gap-2">
                <KeyRound className="size-4 text-primary" aria-hidden /> Exigir o código do profissional ao assinar
              </Label>
              <p className="text-sm text-muted-foreground">
                O profissional responsável assina com a senha <strong>e</strong> um código de 6 dígitos enviado ao
                e-mail da conta dele: a assinatura do profissional fica <strong>avançada</strong>. Desligado, ele pode
                assinar só com a senha, e o registro do PDF diz que foi login e senha, sem segundo fator.
              </p>
              {settings.data.codigo_profissional && !settings.data.email_entregavel ? (
                <p className="text-sm text-amber-700 dark:text-amber-400">
                  Este servidor não envia e-mails: enquanto isso, o profissional assina só com a senha.
                </p>
              ) : null}
            </div>
            <Switch
              id={`${switchId}-professional-code`}
              checked={settings.data.codigo_profissional}
              onCheckedChange={(value) => void change({ codigo_profissional: value })}
              disabled={!canManage || save.isPending}
              className="mt-0.5"
            />
          </div>
        ) : null}
        {settings.data ? (
          <fieldset className="mt-4 grid gap-2 border-t pt-4" data-testid="professional-order">
            <legend className="flex items-center gap-2 pt-4 text-sm font-medium">
              <FilePen className="size-4 text-primary" aria-hidden /> Quando o profissional responsável assina
            </legend>
            <RadioGroup
              value={settings.data.ordem_profissional}
              onValueChange={(value) => void change({ ordem_profissional: value as ProfessionalOrder })}
              disabled={!canManage || save.isPending}
              className="gap-2"
            >
              {PROFESSIONAL_ORDERS.map((option) => (
                <div key={option} className="flex items-start gap-2">
                  <RadioGroupItem value={option} id={`${switchId}-${option}`} className="mt-0.5" />
                  <Label htmlFor={`${switchId}-${option}`} className="grid gap-0.5 font-normal">
                    <span className="font-medium">{PROFESSIONAL_ORDER_LABELS[option]}</span>
                    <span className="text-sm text-muted-foreground">{ORDER_HINTS[option]}</span>
                  </Label>
                </div>
              ))}
            </RadioGroup>
          </fieldset>
        ) : null}
      </CardContent>
    </Card>
  );
}

function SigningLevelLine({ settings }: { settings: Parameters<typeof signingLevelNotice>[0] }) {
  const notice = signingLevelNotice(settings);
  return (
    <p
      className={`text-sm ${notice.level === "simples" ? "text-amber-700 dark:text-amber-400" : "text-emerald-700 dark:text-emerald-400"}`}
      data-testid="signing-level"
    >
      {notice.text}
    </p>
  );
}
