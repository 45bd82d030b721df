import { PenLine, ShieldCheck } from "lucide-react";
import type * as React from "react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth/api/auth-api";
import { useCertificates } from "@/features/certificates/api/certificates-api";
import { certificateBadge } from "@shared/certificates/certificate-status";
import { errorMessage } from "@/lib/api";
import type { DocumentDetail } from "@shared/schemas/document";
import { useProfessionalSignature } from "../api/signing-api";

export const PROFESSIONAL_SIGNED = "Declaração do profissional assinada";

/**
 * Before sending (issue 11): the responsible professional signs the professional declaration as
 * themselves — their password typed again. Others see who is awaited.
 */
export function ProfessionalSignature({ doc }: { doc: DocumentDetail }) {
  const { data: user } = useCurrentUser();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const sign = useProfessionalSignature();
  const passwordId = useId();
  const certificateId = useId();
  const pending = doc.assinaturas_pendentes.includes("profissional") && !!doc.medico;
  const mine = pending && user?.profile.id === doc.medico?.id;
  // Their own active ICP-Brasil certificate (e-CPF), if they uploaded one: offered, not imposed.
  const certificates = useCertificates(mine && open);
  const ownCertificate = certificates.data?.items.find(
    (c) => c.titular === "profissional" && c.profissional?.id === user?.profile.id && c.icp_brasil && c.is_active && certificateBadge(c).tone !== "expired",
  );
  const [withCertificate, setWithCertificate] = useState(true);
  if (!pending || !doc.medico) return null;

  async function confirm(event: React.FormEvent) {
    event.preventDefault();
    try {
      await sign.mutateAsync({ id: doc.id, senha: password, com_certificado: !!ownCertificate && withCertificate });
      toast.success(PROFESSIONAL_SIGNED);
      setOpen(false);
      setPassword("");
    } catch (error) {
      toast.error("Não foi possível assinar", { description: errorMessage(error) });
    }
  }

  return (
    <div className="grid gap-2 rounded-lg border border-amber-300/60 bg-amber-50/60 p-3 text-sm dark:bg-amber-950/20" data-testid="professional-signature">
      <p className="font-medium">Falta a assinatura do profissional responsável</p>
      <p className="text-muted-foreground">
        {mine
          ? "Assine a declaração do profissional antes de enviar o documento ao paciente."
          : `${doc.medico.nome} precisa entrar no Consentir e assinar a declaração do profissional antes do envio.`}
      </p>
      {mine ? (
        <Button onClick={() => setOpen(true)} className="w-full sm:w-fit">
          <PenLine /> Assinar como profissional responsável
        </Button>
      ) : null}
      <Dialog open={open} onOpenChange={(next) => !sign.isPending && setOpen(next)}>
        <DialogContent className="sm:max-w-md">
          <form onSubmit={(event) => void confirm(event)} className="grid gap-4">
            <DialogHeader>
              <DialogTitle>Assinar como profissional responsável</DialogTitle>
              <DialogDescription>
                Você, {doc.medico.nome}, assina a declaração do profissional deste documento. Digite sua senha para confirmar que é você: a assinatura
                fica registrada com data, hora, IP e navegador.
              </DialogDescription>
            </DialogHeader>
            {ownCertificate ? (
              <div className="flex items-start gap-2 rounded-md border p-3">
                <Checkbox id={certificateId} checked={withCertificate} onCheckedChange={(value) => setWithCertificate(value === true)} />
                <Label htmlFor={certificateId} className="grid gap-0.5 font-normal leading-snug">
                  <span className="font-medium">Assinar também com meu certificado digital ICP-Brasil</span>
                  <span className="text-muted-foreground text-xs">
                    {ownCertificate.cn} — o PDF final recebe também a assinatura digital com este certificado (PAdES AD-RB), antes do selo da clínica, se ele ainda estiver ativo quando o documento for selado.
                  </span>
                </Label>
              </div>
            ) : null}
            <div className="grid gap-1.5">
              <Label htmlFor={passwordId}>Sua senha</Label>
              <Input id={passwordId} type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} />
            </div>
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={sign.isPending}>
                Voltar
              </Button>
              <Button type="submit" disabled={sign.isPending || password.length === 0}>
                {sign.isPending ? <Spinner /> : <ShieldCheck />} Assinar
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  );
}
