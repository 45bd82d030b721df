import { Mail, PenLine, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth";
import { useCertificates } from "@/features/certificates";
import { useSigningSettings } from "@/features/settings";
import { ERRORS } from "@shared/errors";
import { certificateBadge } from "@shared/certificates/certificate-status";
import { ApiError, errorMessage } from "@/lib/api";
import type { DocumentDetail } from "@shared/schemas/document";
import { OTP_TTL_MINUTES } from "@shared/schemas/signing";
import { useProfessionalSignature, useProfessionalSigningCode } from "../api/signing-api";

export const PROFESSIONAL_SIGNED = "Declaração do profissional assinada";

/** Where the code stands: not asked yet, sent (to the masked address), or impossible (no e-mail from this server). */
type CodeState = { kind: "idle" } | { kind: "sent"; destino: string } | { kind: "unavailable"; message: string };

/**
 * Before or after sending, as the clinic chose (decision 050): the responsible professional signs the professional declaration as
 * themselves — their password typed again and the code sent to their account's e-mail (decision
 * 042: a second factor, so the signature is advanced; without e-mail on this server, the password
 * alone, said so). Others see who is awaited.
 */
export function ProfessionalSignature({ doc }: { doc: DocumentDetail }) {
  const { data: user } = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [asked, setCodeState] = useState<CodeState>({ kind: "idle" });
  // A server that sends no e-mail is said at once, not after "Enviar código" (spec audit).
  const settings = useSigningSettings();
  const codeState: CodeState =
    asked.kind === "idle" && settings.data?.email_entregavel === false
      ? { kind: "unavailable", message: ERRORS.PROFESSIONAL_CODE_UNAVAILABLE.message }
      : asked;
  const sign = useProfessionalSignature();
  const sendCode = useProfessionalSigningCode();
  const passwordId = useId();
  const codeId = useId();
  const certificateId = useId();
  const pending = doc.assinaturas_pendentes.includes("profissional") && !!doc.medico;
  const mine = pending && user?.profile.id === doc.medico?.id;
  // Their own active ICP-Brasil certificate (e-CPF), if they uploaded one: offered, not imposed.
  const certificates = useCertificates(mine && open);
  const ownCertificate = certificates.data?.items.find(
    (c) =>
      c.titular === "profissional" &&
      c.profissional?.id === user?.profile.id &&
      c.icp_brasil &&
      c.is_active &&
      certificateBadge(c).tone !== "expired",
  );
  const [withCertificate, setWithCertificate] = useState(true);
  if (!pending || !doc.medico) return null;
  // The clinic's setting (decision 078): with it on, the code is required whenever it can be sent;
  // off, the password alone is allowed (a code typed still makes the signature advanced).
  const codeOptional = settings.data?.codigo_profissional === false;
  const codeReady =
    codeState.kind === "unavailable" ||
    (codeState.kind === "sent" && code.length === 6) ||
    (codeOptional && code.length === 0);

  async function askCode() {
    try {
      const sent = await sendCode.mutateAsync({ id: doc.id });
      setCodeState({ kind: "sent", destino: sent.destino });
      setCode("");
    } catch (error) {
      if (error instanceof ApiError && error.code === "PROFESSIONAL_CODE_UNAVAILABLE")
        setCodeState({ kind: "unavailable", message: error.message });
      else toast.error("Não foi possível enviar o código", { description: errorMessage(error) });
    }
  }

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    try {
      await sign.mutateAsync({
        id: doc.id,
        senha: password,
        com_certificado: !!ownCertificate && withCertificate,
        ...(codeState.kind === "sent" && code.length > 0 ? { codigo: code } : {}),
      });
      toast.success(PROFESSIONAL_SIGNED);
      setOpen(false);
      setPassword("");
      setCode("");
      setCodeState({ kind: "idle" });
    } catch (error) {
      toast.error("Não foi possível assinar", { description: errorMessage(error) });
    }
  }

  return (
    <div
      className="grid gap-2 rounded-lg border border-amber-300/60 bg-amber-50/60 p-3 text-sm dark:bg-amber-950/20"
      data-testid="professional-signature"
    >
      <p className="font-medium">Falta a assinatura do profissional responsável</p>
      <p className="text-muted-foreground">
        {mine
          ? "Assine a declaração do profissional. O documento só fica concluído quando todas as partes assinarem."
          : `${doc.medico.nome} precisa entrar no Consentir e assinar a declaração do profissional. O documento só fica concluído quando todas as partes assinarem.`}
      </p>
      {mine ? (
        // Wraps on a narrow phone instead of widening the page.
        <Button onClick={() => setOpen(true)} className="h-auto w-full py-2 whitespace-normal sm:w-fit">
          <PenLine /> Assinar como profissional responsável
        </Button>
      ) : null}
      <Dialog open={open} onOpenChange={(next) => !sign.isPending && setOpen(next)}>
        <DialogContent className="sm:max-w-md">
          <form onSubmit={(event) => void confirm(event)} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Assinar como profissional responsável</DialogTitle>
              <DialogDescription>
                Você, {doc.medico.nome}, assina a declaração do profissional deste documento. Confirme que é você com o
                código enviado ao e-mail da sua conta e a sua senha: a assinatura fica registrada com data, hora, IP e
                navegador.
              </DialogDescription>
            </DialogHeader>
            {ownCertificate ? (
              <div className="flex items-start gap-2 rounded-md border p-3">
                <Checkbox
                  id={certificateId}
                  checked={withCertificate}
                  onCheckedChange={(value) => setWithCertificate(value === true)}
                />
                <Label htmlFor={certificateId} className="grid gap-0.5 font-normal leading-snug">
                  <span className="font-medium">Assinar também com meu certificado digital ICP-Brasil</span>
                  <span className="text-muted-foreground text-xs">
                    {ownCertificate.cn} — o PDF final recebe também a assinatura digital com este certificado (PAdES
                    AD-RB), antes do selo da clínica, se ele ainda estiver ativo quando o documento for selado.
                  </span>
                </Label>
              </div>
            ) : null}
            <div className="grid gap-2 rounded-md border p-3" data-testid="professional-code">
              {codeState.kind === "unavailable" ? (
                <p className="text-sm text-muted-foreground" role="status">
                  {codeState.message}
                </p>
              ) : (
                <>
                  <p className="text-sm">
                    {codeState.kind === "sent"
                      ? `Enviamos um código de 6 dígitos para ${codeState.destino}. Ele vale ${OTP_TTL_MINUTES} minutos.`
                      : codeOptional
                        ? "A clínica não exige o código: você pode assinar só com a senha (login e senha, sem segundo fator) ou pedir o código ao e-mail da sua conta para uma assinatura avançada."
                        : "Primeiro, peça o código que vai para o e-mail da sua conta."}
                  </p>
                  {codeState.kind === "sent" ? (
                    <div className="grid gap-1.5">
                      <Label htmlFor={codeId}>Código de 6 dígitos</Label>
                      <Input
                        id={codeId}
                        autoFocus
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        maxLength={6}
                        value={code}
                        onChange={(event) => setCode(event.target.value.replace(/\D/g, "").slice(0, 6))}
                      />
                    </div>
                  ) : null}
                  <Button
                    type="button"
                    variant="outline"
                    className="w-full sm:w-fit"
                    onClick={() => void askCode()}
                    disabled={sendCode.isPending}
                  >
                    {sendCode.isPending ? <Spinner /> : <Mail />}{" "}
                    {codeState.kind === "sent" ? "Enviar outro código" : "Enviar código"}
                  </Button>
                </>
              )}
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={passwordId}>Sua senha</Label>
              <Input
                id={passwordId}
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(event) => setPassword(event.target.value)}
              />
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={sign.isPending}>
                Voltar
              </Button>
              <Button type="submit" disabled={sign.isPending || password.length === 0 || !codeReady}>
                {sign.isPending ? <Spinner /> : <ShieldCheck />} Assinar
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
