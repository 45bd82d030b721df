import { zodResolver } from "@hookform/resolvers/zod";
import { HandHelping, Trash2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { MaskedInput } from "@/components/form/masked-input";
import { CPF_MASK } from "@/components/form/masks";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { errorMessage } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { formatCpf } from "@shared/br/cpf";
import {
  A_ROGO_MESSAGES,
  A_ROGO_MOTIVO_LABELS,
  A_ROGO_MOTIVOS,
  A_ROGO_WITNESSES,
  type ARogoInput,
  type ARogoMotivo,
  aRogoInputSchema,
} from "@shared/schemas/a-rogo";
import type { DocumentDetail } from "@shared/schemas/document";
import { useRemoveARogo, useSetARogo, useWitnesses } from "../api/witnesses-api";

const FIELDS = ["nome", "cpf", "motivo"] as const;
const EMPTY = { nome: "", cpf: "", motivo: undefined } as unknown as ARogoInput;

/**
 * "Assinatura a rogo" (decision 070): on a draft, staff say the patient cannot read or sign and
 * name the person who will sign at their request; the card says what is still missing (two
 * witnesses) and how it goes (at the front desk, the term read aloud). Afterwards, what was set.
 */
export function ARogoCard({ doc, canWrite }: { doc: DocumentDetail; canWrite: boolean }) {
  const editable = doc.status === "draft" && canWrite;
  const current = doc.a_rogo ?? null;
  const witnesses = useWitnesses(doc.id, current !== null);
  const save = useSetARogo(doc.id);
  const remove = useRemoveARogo(doc.id);
  const [formOpen, setFormOpen] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ARogoInput>({ resolver: zodResolver(aRogoInputSchema) as never, defaultValues: EMPTY });
  const { register, handleSubmit, setError, setValue, watch, formState } = form;
  const motivo = watch("motivo");

  if (!current && !editable) return null;

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await save.mutateAsync(aRogoInputSchema.parse(values));
      toast.success(A_ROGO_MESSAGES.saved);
      setFormOpen(false);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error("Não foi possível definir a assinatura a rogo", { description: rest ?? errorMessage(error) });
    }
  });

  async function removeIt() {
    try {
      await remove.mutateAsync();
      toast.success(A_ROGO_MESSAGES.removed);
    } catch (error) {
      toast.error("Não foi possível remover a assinatura a rogo", { description: errorMessage(error) });
    }
  }

  const named = witnesses.data?.items.length ?? 0;
  const missing = Math.max(0, A_ROGO_WITNESSES - named);

  return (
    <Card className="gap-3 py-4" data-testid="a-rogo-card">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base">{A_ROGO_MESSAGES.title}</CardTitle>
        <CardDescription>{A_ROGO_MESSAGES.hint}</CardDescription>
      </CardHeader>
      <CardContent className="grid max-w-xl gap-4 px-4 sm:px-6">
        {current ? (
          <div className="grid gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm">
              <div className="grid gap-0.5">
                <span className="font-medium">Assina a rogo: {current.nome}</span>
                <span className="text-muted-foreground">
                  CPF {formatCpf(current.cpf)} · o paciente {A_ROGO_MOTIVO_LABELS[current.motivo]}
                </span>
              </div>
              {editable ? (
                <Button
                  size="sm"
                  variant="outline"
                  className="text-destructive hover:text-destructive"
                  disabled={remove.isPending}
                  onClick={() => void removeIt()}
                >
                  <Trash2 /> Remover
                </Button>
              ) : null}
            </div>
            {doc.status === "draft" && !witnesses.isPending && missing > 0 ? (
              <Alert data-testid="a-rogo-witnesses-missing">
                <AlertDescription>
                  {A_ROGO_MESSAGES.witnessesMissing(missing)} Elas assinam cada uma pelo próprio link.
                </AlertDescription>
              </Alert>
            ) : null}
            {doc.status === "draft" || doc.status === "sent" || doc.status === "viewed" ? (
              <p className="text-sm text-muted-foreground">
                O link não é enviado ao paciente: depois de enviar, use “Assinar neste aparelho” e leia o termo em voz
                alta para ele antes que {current.nome} assine.
              </p>
            ) : null}
          </div>
        ) : !formOpen ? (
          // A long label: it wraps on a phone instead of widening the page.
          <Button
            variant="outline"
            className="h-auto w-fit max-w-full py-2 text-left whitespace-normal"
            onClick={() => setFormOpen(true)}
          >
            <HandHelping /> {A_ROGO_MESSAGES.open}
          </Button>
        ) : (
          <form
            onSubmit={(event) => void submit(event)}
            className="grid gap-3"
            noValidate
            aria-label="Definir assinatura a rogo"
          >
            {formError ? <FormErrorAlert message={formError} /> : null}
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">O paciente…</legend>
              <RadioGroup
                value={motivo ?? ""}
                onValueChange={(value) =>
                  setValue("motivo", value as ARogoMotivo, { shouldValidate: formState.isSubmitted })
                }
                className="gap-2"
                aria-invalid={formState.errors.motivo ? true : undefined}
              >
                {A_ROGO_MOTIVOS.map((option) => (
                  <div key={option} className="flex items-center gap-2">
                    <RadioGroupItem value={option} id={`a-rogo-${option}`} />
                    <Label htmlFor={`a-rogo-${option}`} className="font-normal">
                      {A_ROGO_MOTIVO_LABELS[option]}
                    </Label>
                  </div>
                ))}
              </RadioGroup>
              {formState.errors.motivo?.message ? (
                <p className="text-sm text-destructive" role="alert">
                  {formState.errors.motivo.message}
                </p>
              ) : null}
            </fieldset>
            <FormField
              label="Nome de quem assina a rogo"
              htmlFor="a-rogo-nome"
              required
              error={formState.errors.nome?.message}
              hint="Uma pessoa de confiança do paciente, que assina com o próprio nome e CPF."
            >
              <Input {...register("nome")} autoComplete="off" />
            </FormField>
            <FormField
              label="CPF de quem assina a rogo"
              htmlFor="a-rogo-cpf"
              required
              error={formState.errors.cpf?.message}
            >
              <MaskedInput
                {...register("cpf")}
                mask={CPF_MASK}
                inputMode="numeric"
                placeholder="000.000.000-00"
                maxLength={14}
              />
            </FormField>
            <div className="flex flex-wrap gap-2">
              <SubmitButton pending={save.isPending} className="w-fit">
                <HandHelping /> Definir assinatura a rogo
              </SubmitButton>
              <Button type="button" variant="ghost" onClick={() => setFormOpen(false)}>
                Cancelar
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
