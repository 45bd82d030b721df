import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
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
import { Textarea } from "@/components/ui/textarea";
import { applyServerErrors } from "@/lib/form-errors";
import {
  CONTENT_MESSAGES,
  type ContentItem,
  type ContentItemInput,
  type ContentKind,
  contentItemInputSchema,
} from "@shared/schemas/content";
import { useSaveContentItem } from "../api/content-api";
import { KIND_SINGULAR } from "../lib/labels";

type FormValues = ContentItemInput;
const FIELDS = ["titulo", "descricao", "categoria", "periodo"] as const;

const toValues = (item: ContentItem | null): FormValues => ({
  titulo: item?.titulo ?? "",
  descricao: item?.descricao ?? "",
  categoria: item?.categoria ?? "",
  periodo: item?.periodo ?? "",
});

/** Create or edit a risk, benefit or aftercare item (`item` null = create). */
export function ContentFormDialog({
  kind,
  open,
  onOpenChange,
  item,
}: {
  kind: ContentKind;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  item: ContentItem | null;
}) {
  const save = useSaveContentItem(kind);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<FormValues, unknown, z.output<typeof contentItemInputSchema>>({
    resolver: zodResolver(contentItemInputSchema),
    defaultValues: toValues(item),
  });
  const { register, handleSubmit, formState, setError, reset } = form;
  const { errors } = formState;
  const singular = KIND_SINGULAR[kind];
  const id = (field: string) => `${kind}-${field}`;

  useEffect(() => {
    if (open) {
      reset(toValues(item));
      setFormError(null);
    }
  }, [open, item, reset]);

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    const input = kind === "cuidados" ? { ...values, categoria: undefined } : { ...values, periodo: undefined };
    try {
      await save.mutateAsync({ id: item?.id, input });
      toast.success(item ? CONTENT_MESSAGES.saved : CONTENT_MESSAGES.created);
      onOpenChange(false);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error(CONTENT_MESSAGES.saveError, rest ? { description: rest } : undefined);
    }
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !formState.isSubmitting && onOpenChange(next)}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{item ? `Editar ${singular.toLowerCase()}` : `Novo ${singular.toLowerCase()}`}</DialogTitle>
          <DialogDescription>
            Título e descrição aparecem nos documentos dos procedimentos associados.
          </DialogDescription>
        </DialogHeader>
        <form
          onSubmit={onSubmit}
          noValidate
          className="grid gap-4"
          aria-label={item ? `Edição de ${singular.toLowerCase()}` : `Cadastro de ${singular.toLowerCase()}`}
        >
          <FormField label="Título" htmlFor={id("titulo")} required error={errors.titulo?.message}>
            <Input {...register("titulo")} autoComplete="off" maxLength={200} />
          </FormField>
          <FormField label="Descrição" htmlFor={id("descricao")} required error={errors.descricao?.message}>
            <Textarea {...register("descricao")} rows={4} className="max-h-60" maxLength={5000} />
          </FormField>
          {kind === "cuidados" ? (
            <FormField
              label="Período"
              htmlFor={id("periodo")}
              error={errors.periodo?.message}
              hint="Ex.: Primeiras 48 horas, 7 dias, 30 dias"
            >
              <Input {...register("periodo")} autoComplete="off" maxLength={120} />
            </FormField>
          ) : (
            <FormField
              label="Categoria"
              htmlFor={id("categoria")}
              error={errors.categoria?.message}
              hint={kind === "riscos" ? "Ex.: Comum, Raro, Grave" : "Ex.: Estético, Funcional"}
            >
              <Input {...register("categoria")} autoComplete="off" maxLength={120} />
            </FormField>
          )}
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
            <SubmitButton pending={formState.isSubmitting}>{item ? "Salvar alterações" : "Criar item"}</SubmitButton>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
