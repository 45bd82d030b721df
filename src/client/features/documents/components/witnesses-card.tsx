import { zodResolver } from "@hookform/resolvers/zod";
import { Trash2, UserPlus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { MaskedInput } from "@/components/form/masked-input";
import { CPF_MASK, PHONE_MASK } from "@/components/form/masks";
import { SubmitButton } from "@/components/form/submit-button";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { errorMessage } from "@/lib/api";
import { applyServerErrors } from "@/lib/form-errors";
import { formatCpf } from "@shared/br/cpf";
import { maskPhone } from "@shared/br/masks";
import { type WitnessInput, WITNESS_MESSAGES, witnessInputSchema } from "@shared/schemas/witness";
import type { DocumentDetail } from "@shared/schemas/document";
import { useAddWitness, useRemoveWitness, useWitnesses } from "../api/witnesses-api";
import { formatDateTime } from "@shared/format";

const FIELDS = ["nome", "cpf", "email", "telefone"] as const;
const EMPTY: WitnessInput = { nome: "", cpf: "", email: "", telefone: "" };

/**
 * "Testemunhas" (decision 021): staff name up to two witnesses on a draft; after sending, each
 * one's state. Hidden on a sent document without witnesses (nothing to show or do).
 */
export function WitnessesCard({ doc, canWrite }: { doc: DocumentDetail; canWrite: boolean }) {
  const editable = doc.status === "draft" && canWrite;
  const witnesses = useWitnesses(doc.id);
  const add = useAddWitness(doc.id);
  const remove = useRemoveWitness(doc.id);
  const [formError, setFormError] = useState<string | null>(null);
  // Witnesses are the exception on a consent term: the form stays closed until someone asks for it.
  const [formOpen, setFormOpen] = useState(false);
  const form = useForm<WitnessInput>({ resolver: zodResolver(witnessInputSchema) as never, defaultValues: EMPTY });
  const { register, handleSubmit, reset, setError, formState } = form;

  const items = witnesses.data?.items ?? [];
  const max = witnesses.data?.max ?? 2;
  if (!editable && items.length === 0) return null;

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await add.mutateAsync(witnessInputSchema.parse(values));
      toast.success(WITNESS_MESSAGES.added);
      reset(EMPTY);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      setFormError(rest);
      toast.error("Não foi possível adicionar a testemunha", { description: rest ?? errorMessage(error) });
    }
  });

  async function removeWitness(id: string) {
    try {
      await remove.mutateAsync(id);
      toast.success(WITNESS_MESSAGES.removed);
    } catch (error) {
      toast.error("Não foi possível remover a testemunha", { description: errorMessage(error) });
    }
  }

  return (
    <Card className="gap-3 py-4" data-testid="witnesses-card">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base">{WITNESS_MESSAGES.title}</CardTitle>
        <CardDescription>{doc.a_rogo ? WITNESS_MESSAGES.hintARogo : WITNESS_MESSAGES.hint}</CardDescription>
      </CardHeader>
      <CardContent className="grid max-w-xl gap-4 px-4 sm:px-6">
        {witnesses.isPending ? (
          <Skeleton className="h-12 w-full" />
        ) : witnesses.isError ? (
          <FormErrorAlert message={`Erro ao carregar testemunhas: ${errorMessage(witnesses.error)}`} />
        ) : items.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nenhuma testemunha neste documento.</p>
        ) : (
          <ul className="grid gap-2">
            {items.map((witness) => (
              <li
                key={witness.id}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 text-sm"
                data-testid="witness-row"
              >
                <div className="grid gap-0.5">
                  <span className="font-medium">
                    {witness.ordem}ª testemunha: {witness.nome}
                  </span>
                  <span className="text-muted-foreground">
                    CPF {formatCpf(witness.cpf)}
                    {witness.email ? ` · ${witness.email}` : ""}
                    {witness.telefone ? ` · ${maskPhone(witness.telefone)}` : ""}
                  </span>
                </div>
                {witness.assinou_em ? (
                  <Badge variant="secondary">Assinou em {formatDateTime(witness.assinou_em)}</Badge>
                ) : editable ? (
                  <Button
                    size="sm"
                    variant="outline"
                    className="text-destructive hover:text-destructive"
                    disabled={remove.isPending}
                    onClick={() => void removeWitness(witness.id)}
                    aria-label={`Remover ${witness.nome}`}
                  >
                    <Trash2 /> Remover
                  </Button>
                ) : (
                  <Badge variant="outline">Aguardando assinatura</Badge>
                )}
              </li>
            ))}
          </ul>
        )}

        {editable && items.length < max && !witnesses.isPending && !formOpen ? (
          <Button variant="outline" className="w-fit" onClick={() => setFormOpen(true)}>
            <UserPlus /> {doc.a_rogo ? WITNESS_MESSAGES.openARogo : WITNESS_MESSAGES.open}
          </Button>
        ) : null}
        {editable && items.length < max && !witnesses.isPending && formOpen ? (
          <form
            onSubmit={(event) => void submit(event)}
            className="grid gap-3 sm:grid-cols-2"
            noValidate
            aria-label="Adicionar testemunha"
          >
            {formError ? (
              <div className="sm:col-span-2">
                <FormErrorAlert message={formError} />
              </div>
            ) : null}
            <FormField
              label="Nome da testemunha"
              htmlFor="testemunha-nome"
              required
              error={formState.errors.nome?.message}
              className="sm:col-span-2"
            >
              <Input {...register("nome")} autoComplete="off" />
            </FormField>
            <FormField label="CPF" htmlFor="testemunha-cpf" required error={formState.errors.cpf?.message}>
              <MaskedInput
                {...register("cpf")}
                mask={CPF_MASK}
                inputMode="numeric"
                placeholder="000.000.000-00"
                maxLength={14}
              />
            </FormField>
            <FormField label="Celular" htmlFor="testemunha-telefone" error={formState.errors.telefone?.message}>
              <MaskedInput {...register("telefone")} mask={PHONE_MASK} inputMode="tel" placeholder="(00) 00000-0000" />
            </FormField>
            <FormField
              label="E-mail"
              htmlFor="testemunha-email"
              error={formState.errors.email?.message}
              hint="O link e o código de assinatura vão para o e-mail ou o celular."
              className="sm:col-span-2"
            >
              <Input {...register("email")} type="email" autoComplete="off" />
            </FormField>
            <SubmitButton pending={add.isPending} className="sm:col-span-2 sm:w-fit">
              <UserPlus /> Adicionar testemunha
            </SubmitButton>
          </form>
        ) : null}
      </CardContent>
    </Card>
  );
}
