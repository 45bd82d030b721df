import { BellRing } from "lucide-react";
import { useId } from "react";
import { toast } from "sonner";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Skeleton } from "@/components/ui/skeleton";
import { Switch } from "@/components/ui/switch";
import { ApiError } from "@/lib/api";
import { REMINDER_MAX } from "@shared/reminders/reminder-schedule";
import { SETTINGS_MESSAGES } from "@shared/schemas/clinic-settings";
import type { ReminderSettingsInput } from "@shared/schemas/reminders";
import { useReminderSettings, useSaveReminderSettings } from "../api/reminders-api";

const COUNTS = Array.from({ length: REMINDER_MAX }, (_, i) => i + 1);

/** Configurações → Lembretes automáticos (decision 059): on by default, up to 3. */
export function ReminderSettingsCard({ canManage }: { canManage: boolean }) {
  const settings = useReminderSettings();
  const save = useSaveReminderSettings();
  const id = useId();

  async function change(input: ReminderSettingsInput) {
    try {
      await save.mutateAsync(input);
      toast.success(SETTINGS_MESSAGES.saved);
    } catch (error) {
      toast.error(SETTINGS_MESSAGES.saveError(error instanceof ApiError ? error.message : "erro inesperado"));
    }
  }

  return (
    <Card className="max-w-3xl" data-testid="reminder-settings">
      <CardHeader>
        <CardTitle className="text-base">Lembretes automáticos</CardTitle>
        <CardDescription>Para o paciente e as testemunhas que ainda não assinaram.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {settings.isPending ? (
          <Skeleton className="h-10 w-full" />
        ) : settings.isError ? (
          <p className="text-sm text-destructive">Não foi possível carregar os lembretes.</p>
        ) : (
          <>
            <div className="flex items-start justify-between gap-4">
              <div className="grid gap-1">
                <Label htmlFor={id} className="flex items-center gap-2">
                  <BellRing className="size-4 text-primary" aria-hidden /> Reenviar o link a quem não assinou
                </Label>
                <p className="text-sm text-muted-foreground">
                  24 horas e 72 horas depois do envio, e 24 horas antes do prazo, pelo mesmo canal do envio (e-mail
                  {settings.data.whatsapp_configurado ? " e WhatsApp" : ""}). Só entre 8h e 20h (horário de Brasília) e
                  nunca depois de assinado, cancelado ou expirado.
                </p>
              </div>
              <Switch
                id={id}
                checked={settings.data.ativo}
                onCheckedChange={(value) => void change({ ativo: value })}
                disabled={!canManage || save.isPending}
                className="mt-0.5"
              />
            </div>
            {settings.data.ativo ? (
              <fieldset className="grid gap-2">
                <legend className="pb-2 text-sm font-medium">No máximo, por documento</legend>
                <RadioGroup
                  value={String(settings.data.maximo)}
                  onValueChange={(value) => void change({ maximo: Number(value) })}
                  disabled={!canManage || save.isPending}
                  className="flex flex-wrap gap-4"
                >
                  {COUNTS.map((n) => (
                    <div key={n} className="flex items-center gap-2">
                      <RadioGroupItem value={String(n)} id={`${id}-${n}`} />
                      <Label htmlFor={`${id}-${n}`} className="font-normal">
                        {n === 1 ? "1 lembrete" : `${n} lembretes`}
                      </Label>
                    </div>
                  ))}
                </RadioGroup>
              </fieldset>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
