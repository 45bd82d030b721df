import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2, FileKey2, Upload } from "lucide-react";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { SubmitButton } from "@/components/form/submit-button";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Textarea } from "@/components/ui/textarea";
import { ApiError, errorMessage } from "@/lib/api";
import { MAX_CERTIFICATE_FILE_BYTES } from "@shared/reference/limits";
import {
  aliasFromFileName,
  CERTIFICATE_MESSAGES,
  CERTIFICATE_TITULAR_LABEL,
  type CertificateTitular,
  type CertificateUploadResult,
  isCertificateFileName,
} from "@shared/schemas/certificates";
import { text } from "@shared/schemas/safe-input";
import { fileToBase64, useUploadCertificate } from "../api/certificates-api";
import { CertificateBadge } from "./certificate-badge";

/** Spec part 1 §4: validating → uploading → done. */
type Stage = "idle" | "validating" | "uploading" | "done";

const formSchema = z.object({
  alias: text().trim().min(1, CERTIFICATE_MESSAGES.aliasRequired).max(120, "Use no máximo 120 caracteres"),
  senha: text().min(1, CERTIFICATE_MESSAGES.passwordRequired).max(200, "Senha longa demais"),
  descricao: text().trim().max(500, "Use no máximo 500 caracteres"),
  titular: z.enum(["clinica", "profissional"]),
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

/** 'Novo Certificado' (spec part 1 §2, §5): file (.p12/.pfx), alias, password, optional description. */
export function CertificateUploadForm({
  titulares,
  onShowList,
}: {
  titulares: CertificateTitular[];
  onShowList: () => void;
}) {
  const upload = useUploadCertificate();
  const [stage, setStage] = useState<Stage>("idle");
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [result, setResult] = useState<CertificateUploadResult | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const autoAlias = useRef("");
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { alias: "", senha: "", descricao: "", titular: titulares[0] ?? "clinica" },
  });
  const { register, formState, setValue, getValues, setError, reset, watch } = form;
  const busy = stage === "validating" || stage === "uploading";

  function chooseFile(chosen: File | undefined) {
    if (!chosen) {
      setFile(null);
      return;
    }
    if (!isCertificateFileName(chosen.name)) {
      toast.error(CERTIFICATE_MESSAGES.invalidFileType, { description: CERTIFICATE_MESSAGES.invalidFileTypeDetail });
      setFileError(CERTIFICATE_MESSAGES.invalidFileTypeDetail);
      setFile(null);
      if (fileInput.current) fileInput.current.value = "";
      return;
    }
    setFile(chosen);
    setFileError(undefined);
    const current = getValues("alias");
    if (!current.trim() || current === autoAlias.current) {
      autoAlias.current = aliasFromFileName(chosen.name);
      setValue("alias", autoAlias.current, { shouldValidate: true });
    }
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (busy) return;
    setStage("validating");
    const fieldsValid = await form.trigger();
    if (!file) setFileError(CERTIFICATE_MESSAGES.fileRequired);
    if (!fieldsValid || !file) {
      const values = getValues();
      if (!file || !values.alias.trim() || !values.senha) {
        toast.error(CERTIFICATE_MESSAGES.requiredFields, { description: CERTIFICATE_MESSAGES.requiredFieldsDetail });
      }
      setStage("idle");
      return;
    }
    if (file.size > MAX_CERTIFICATE_FILE_BYTES || file.size === 0) {
      setFileError(file.size === 0 ? "O arquivo está vazio." : CERTIFICATE_MESSAGES.tooLarge);
      toast.error(CERTIFICATE_MESSAGES.uploadError, {
        description: file.size === 0 ? "O arquivo está vazio." : CERTIFICATE_MESSAGES.tooLarge,
      });
      setStage("idle");
      return;
    }
    let base64: string;
    try {
      base64 = await fileToBase64(file);
    } catch (error) {
      toast.error(CERTIFICATE_MESSAGES.uploadError, { description: errorMessage(error) });
      setStage("idle");
      return;
    }
    const values = formSchema.parse(getValues());
    setStage("uploading");
    try {
      const uploaded = await upload.mutateAsync({
        arquivo_base64: base64,
        nome_arquivo: file.name,
        alias: values.alias,
        senha: values.senha,
        descricao: values.descricao || null,
        titular: values.titular,
      });
      setResult(uploaded);
      setStage("done");
      toast.success(CERTIFICATE_MESSAGES.uploaded, { description: uploaded.certificado.alias });
    } catch (error) {
      setStage("idle");
      if (error instanceof ApiError) {
        for (const issue of error.issues) {
          if (issue.path === "senha" || issue.path === "alias" || issue.path === "descricao") {
            setError(issue.path, { type: "server", message: issue.message }, { shouldFocus: issue.path === "senha" });
          } else if (issue.path === "arquivo_base64" || issue.path === "nome_arquivo") {
            setFileError(issue.message);
          }
        }
      }
      toast.error(CERTIFICATE_MESSAGES.uploadError, { description: errorMessage(error) });
    }
  }

  function startOver() {
    reset({ alias: "", senha: "", descricao: "", titular: getValues("titular") });
    autoAlias.current = "";
    setFile(null);
    setFileError(undefined);
    setResult(null);
    setStage("idle");
    if (fileInput.current) fileInput.current.value = "";
  }

  if (stage === "done" && result) {
    return (
      <Card data-testid="certificate-upload-done" data-stage="done">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-base">
            <CheckCircle2 className="size-5 text-[color-mix(in_oklab,var(--color-success)_70%,black)]" aria-hidden />{" "}
            {CERTIFICATE_MESSAGES.uploaded}
          </CardTitle>
          <CardDescription className="break-words">
            {result.certificado.alias} — {result.certificado.cn}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <CertificateBadge certificate={result.certificado} />
            {result.substituido_id ? (
              <span className="text-muted-foreground">
                O certificado anterior foi desativado e substituído por este.
              </span>
            ) : null}
          </div>
          {result.avisos.length ? (
            <Alert data-testid="certificate-upload-warnings">
              <AlertTitle>Confira</AlertTitle>
              <AlertDescription>
                <ul className="list-disc pl-4">
                  {result.avisos.map((aviso) => (
                    <li key={aviso}>{aviso}</li>
                  ))}
                </ul>
              </AlertDescription>
            </Alert>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button onClick={onShowList}>Ver meus certificados</Button>
            <Button variant="outline" onClick={startOver}>
              Enviar outro
            </Button>
          </div>
        </CardContent>
      </Card>
    );
  }

  const titular = watch("titular");
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Novo Certificado</CardTitle>
        <CardDescription>
          Certificado A1 em arquivo (.pfx ou .p12) com a senha. O arquivo é conferido antes de ser guardado, e arquivo e
          senha ficam criptografados.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          onSubmit={(event) => void submit(event)}
          noValidate
          className="grid gap-4"
          aria-label="Novo certificado"
          data-stage={stage}
        >
          {titulares.length > 1 ? (
            <fieldset className="grid gap-2">
              <legend className="mb-2 text-sm font-medium">De quem é o certificado</legend>
              <RadioGroup
                value={titular}
                onValueChange={(value) => setValue("titular", value as CertificateTitular)}
                className="gap-2"
              >
                {titulares.map((option) => (
                  <div key={option} className="flex items-center gap-2">
                    <RadioGroupItem value={option} id={`titular-${option}`} />
                    <Label htmlFor={`titular-${option}`} className="font-normal">
                      {CERTIFICATE_TITULAR_LABEL[option]}
                    </Label>
                  </div>
                ))}
              </RadioGroup>
            </fieldset>
          ) : (
            <p className="text-sm text-muted-foreground">{CERTIFICATE_TITULAR_LABEL[titulares[0] ?? "clinica"]}</p>
          )}
          <FormField
            label="Arquivo do certificado"
            htmlFor="certificate-file"
            required
            error={fileError}
            hint="Apenas arquivos .p12 ou .pfx (até 64 kB)."
          >
            {(control) => (
              <div className="flex min-w-0 flex-wrap items-center gap-3">
                <Button type="button" variant="outline" disabled={busy} onClick={() => fileInput.current?.click()}>
                  <FileKey2 aria-hidden /> Escolher arquivo
                </Button>
                <span className="min-w-0 text-sm break-all text-muted-foreground" data-testid="certificate-file-name">
                  {file ? file.name : "Nenhum arquivo escolhido"}
                </span>
                <input
                  {...control}
                  ref={fileInput}
                  type="file"
                  className="sr-only"
                  accept=".p12,.pfx,application/x-pkcs12"
                  disabled={busy}
                  onChange={(event) => chooseFile(event.target.files?.[0])}
                  data-testid="certificate-file"
                />
              </div>
            )}
          </FormField>
          <FormField
            label="Nome do certificado"
            htmlFor="certificate-alias"
            required
            error={formState.errors.alias?.message}
            hint="Sugerido a partir do nome do arquivo."
          >
            <Input {...register("alias")} disabled={busy} autoComplete="off" />
          </FormField>
          <FormField
            label="Senha do certificado"
            htmlFor="certificate-password"
            required
            error={formState.errors.senha?.message}
          >
            <Input {...register("senha")} type="password" autoComplete="off" disabled={busy} />
          </FormField>
          <FormField
            label="Descrição"
            htmlFor="certificate-description"
            error={formState.errors.descricao?.message}
            hint="Opcional."
          >
            <Textarea {...register("descricao")} rows={2} disabled={busy} />
          </FormField>
          <div className="flex flex-wrap items-center gap-3">
            <SubmitButton pending={busy}>
              {busy ? null : <Upload aria-hidden />}
              {stage === "validating" ? "Validando…" : stage === "uploading" ? "Enviando…" : "Enviar certificado"}
            </SubmitButton>
            <span
              className="text-sm text-muted-foreground"
              role="status"
              aria-live="polite"
              data-testid="certificate-upload-stage"
            >
              {stage === "validating"
                ? "Validando o arquivo…"
                : stage === "uploading"
                  ? "Enviando e conferindo o certificado…"
                  : ""}
            </span>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
