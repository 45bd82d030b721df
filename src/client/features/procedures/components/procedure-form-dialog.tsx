import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { CurrencyInput } from "@/components/form/currency-input";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
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
import { Label } from "@/components/ui/label";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { NativeSelect } from "@/components/form/native-select";
import { applyServerErrors } from "@/lib/form-errors";
import { formatCentavos } from "@shared/br/money";
import { isKnownSpecialty, PROCEDURE_SPECIALTY_GROUPS } from "@shared/reference/procedure-specialties";
import {
  type Procedure,
  type ProcedureInput,
  PROCEDURE_MESSAGES,
  procedureInputSchema,
} from "@shared/schemas/procedure";
import { useSaveProcedure } from "../api/procedures-api";

type FormValues = ProcedureInput;
const FIELDS = ["nome", "descricao", "especialidade", "is_private", "valor"] as const;

const toValues = (procedure: Procedure | null): FormValues => ({
  nome: procedure?.nome ?? "",
  descricao: procedure?.descricao ?? "",
  especialidade: procedure?.especialidade ?? "",
  is_private: procedure?.is_private ?? false,
  valor: procedure?.valor_centavos != null ? formatCentavos(procedure.valor_centavos) : "",
});

/** Novo Procedimento / Editar Procedimento in a dialog (`procedure` null = create). */
export function ProcedureFormDialog({
  open,
  onOpenChange,
  procedure,
  canMakePrivate,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  procedure: Procedure | null;
  canMakePrivate: boolean;
}) {
  const save = useSaveProcedure();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues, unknown, z.output<typeof procedureInputSchema>>({
    resolver: zodResolver(procedureInputSchema),
    defaultValues: toValues(procedure),
  });
  const { register, handleSubmit, formState, setError, reset, control } = form;
  const { errors } = formState;
  // A specialty typed before the list existed stays selectable as it was (the server keeps it).
  const legacy =
    procedure?.especialidade && !isKnownSpecialty(procedure.especialidade) ? procedure.especialidade : null;

  useEffect(() => {
    if (open) {
      reset(toValues(procedure));
      setFormError(null);
    }
  }, [open, procedure, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      // The API reads the amount as typed (the same schema parses it there); send the text, not the centavos.
      const input = {
        ...values,
        valor: form.getValues("valor") ?? "",
        is_private: canMakePrivate ? values.is_private : false,
      };
      await save.mutateAsync({ id: procedure?.id, input });
      toast.success(procedure ? PROCEDURE_MESSAGES.saved : PROCEDURE_MESSAGES.created);
      onOpenChange(false);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error(PROCEDURE_MESSAGES.saveError, rest ? { description: rest } : undefined);
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !formState.isSubmitting && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{procedure ? "Editar Procedimento" : "Novo Procedimento"}</DialogTitle>
          <DialogDescription>
            {procedure
              ? "Altere os dados do procedimento."
              : "Cadastre um procedimento para associar riscos, benefícios e cuidados."}
          </DialogDescription>
        </DialogHeader>
        <form
          onSubmit={onSubmit}
          noValidate
          className="grid gap-4"
          aria-label={procedure ? "Edição de procedimento" : "Cadastro de procedimento"}
        >
          <FormField label="Nome" htmlFor="procedure-nome" required error={errors.nome?.message}>
            <Input {...register("nome")} autoComplete="off" placeholder="Ex.: Rinoplastia" maxLength={160} />
          </FormField>
          <FormField label="Descrição" htmlFor="procedure-descricao" error={errors.descricao?.message}>
            <Textarea
              {...register("descricao")}
              rows={3}
              className="max-h-48"
              placeholder="Breve descrição do procedimento"
              maxLength={2000}
            />
          </FormField>
          <FormField label="Especialidade" htmlFor="procedure-especialidade" error={errors.especialidade?.message}>
            <NativeSelect {...register("especialidade")}>
              <option value="">Sem especialidade</option>
              {legacy ? <option value={legacy}>{legacy} (texto antigo)</option> : null}
              {PROCEDURE_SPECIALTY_GROUPS.map((group) => (
                <optgroup key={group.label} label={group.label}>
                  {group.items.map((item) => (
                    <option key={item.codigo} value={item.codigo}>
                      {item.nome}
                    </option>
                  ))}
                </optgroup>
              ))}
            </NativeSelect>
          </FormField>
          <FormField
            label="Valor (R$)"
            htmlFor="procedure-valor"
            error={errors.valor?.message}
            hint="Opcional. Sugerido como “Valor do procedimento” nos documentos."
          >
            <CurrencyInput {...register("valor")} />
          </FormField>
          <Controller
            control={control}
            name="is_private"
            render={({ field }) => (
              <div className="flex items-start justify-between gap-4 rounded-md border p-3">
                <div className="grid gap-1">
                  <Label htmlFor="procedure-privado">Procedimento privado</Label>
                  <p id="procedure-privado-hint" className="text-sm text-muted-foreground">
                    {canMakePrivate
                      ? "Visível apenas para você. Desligado, toda a clínica pode usá-lo."
                      : PROCEDURE_MESSAGES.alwaysShared}
                  </p>
                </div>
                <Switch
                  id="procedure-privado"
                  aria-describedby="procedure-privado-hint"
                  checked={canMakePrivate && field.value === true}
                  onCheckedChange={field.onChange}
                  disabled={!canMakePrivate}
                />
              </div>
            )}
          />
          <FormErrorAlert message={formError} />
          <DialogFooter>
            <Button
              type="button"
              variant="outline"
              onClick={() => onOpenChange(false)}
              disabled={formState.isSubmitting}
            >
              Cancelar
            </Button>
            <SubmitButton pending={formState.isSubmitting}>
              {procedure ? "Salvar alterações" : "Criar procedimento"}
            </SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
