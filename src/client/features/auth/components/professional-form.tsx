import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { FormProvider, useForm } from "react-hook-form";
import { FormErrorAlert } from "@/components/form/form-error-alert";
import { SubmitButton } from "@/components/form/submit-button";
import { Button } from "@/components/ui/button";
import { applyServerErrors } from "@/lib/form-errors";
import { professionalSignUpSchema } from "@shared/schemas/signup";
import type { z } from "zod";
import { useSignUp } from "../api/auth-api";
import { CouncilFields, EMPTY_ESPECIALIDADE } from "./council-fields";
import { PersonFields } from "./person-fields";
import { signUpErrorMessage } from "./sign-up-error";

type Values = z.input<typeof professionalSignUpSchema>;
const FIELDS = [
  "nome",
  "cpf",
  "email",
  "telefone",
  "password",
  "confirmPassword",
  "conselho_tipo",
  "conselho_numero",
  "conselho_uf",
  "especialidades",
];

/** Independent professional sign-up: one page (spec part 1 §2). */
export function ProfessionalForm({ onBack, onDone }: { onBack: () => void; onDone: (email: string) => void }) {
  const signUp = useSignUp();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<Values, unknown, z.output<typeof professionalSignUpSchema>>({
    resolver: zodResolver(professionalSignUpSchema),
    defaultValues: {
      profile_type: "profissional_independente",
      nome: "",
      cpf: "",
      email: "",
      telefone: "",
      password: "",
      confirmPassword: "",
      conselho_tipo: undefined,
      conselho_numero: "",
      conselho_uf: undefined,
      especialidades: [{ ...EMPTY_ESPECIALIDADE }],
    },
  });
  const { handleSubmit, formState, setError, setValue } = form;

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await signUp.mutateAsync(values);
      onDone(values.email);
    } catch (error) {
      const rest = applyServerErrors(error, setError, FIELDS);
      if (rest) setFormError(signUpErrorMessage(error, rest, "Erro ao criar conta do profissional"));
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate className="grid gap-5" aria-label="Cadastro de profissional independente">
        <div className="flex items-center gap-2">
          <Button type="button" variant="ghost" size="sm" onClick={onBack}>
            <ArrowLeft /> Voltar
          </Button>
          <h2 className="text-lg font-semibold">Profissional independente</h2>
        </div>
        <PersonFields />
        <CouncilFields onCouncilChange={() => setValue("especialidades", [{ ...EMPTY_ESPECIALIDADE }])} />
        <FormErrorAlert message={formError} />
        <SubmitButton pending={formState.isSubmitting}>Criar conta</SubmitButton>
      </form>
    </FormProvider>
  );
}
