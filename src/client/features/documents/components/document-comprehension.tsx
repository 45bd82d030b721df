import { CircleHelp, MessageCircleQuestion } from "lucide-react";
import { COMPREHENSION_MESSAGES, comprehensionLine } from "@shared/document-model/comprehension";
import { whenInSaoPaulo } from "@shared/notices/notice-text";
import type { SignatureSummary } from "@shared/schemas/signing";

/**
 * The comprehension questions each signer answered (decision 061): every try, scored by the
 * server, as the signature's event recorded them.
 */
export function DocumentComprehension({ signatures }: { signatures: SignatureSummary[] }) {
  const answered = signatures.filter((s) => s.compreensao);
  if (answered.length === 0) return null;
  return (
    <div className="grid gap-3" data-testid="document-comprehension">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <CircleHelp className="size-4 text-primary" aria-hidden /> Perguntas de compreensão
      </h3>
      {answered.map((signature) => {
        const record = signature.compreensao!;
        return (
          <div key={`${signature.papel}-${signature.assinou_em}`} className="grid gap-2 rounded-md border p-3 text-sm">
            <p className="font-medium">{signature.nome}</p>
            <p className="text-xs text-muted-foreground" data-testid="comprehension-line">
              {comprehensionLine(record)}
            </p>
            <ol className="grid list-decimal gap-2 pl-5">
              {record.perguntas.map((q) => (
                <li key={q.id} className="grid gap-0.5" data-question-id={q.id}>
                  <span className="font-medium break-words">{q.pergunta}</span>
                  <span className="text-xs break-words text-muted-foreground">
                    Resposta esperada: “{q.opcoes[q.certa] ?? ""}”
                  </span>
                  <ul className="grid gap-0.5 text-xs">
                    {q.tentativas.map((t, index) => (
                      <li key={index} className={t.correta ? "text-success" : "text-destructive"}>
                        {index + 1}ª tentativa: “{q.opcoes[t.opcao] ?? `opção ${t.opcao + 1}`}” —{" "}
                        {t.correta ? "certa" : "errada"} ({whenInSaoPaulo(new Date(t.em))})
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ol>
          </div>
        );
      })}
    </div>
  );
}

/** While the patient waits for the clinic's call: the signature is paused until the link is sent again. */
export function ComprehensionPausedNotice({ pausedAt, status }: { pausedAt: string | null; status: string }) {
  if (!pausedAt || !["sent", "viewed"].includes(status)) return null;
  return (
    <div
      role="status"
      className="flex gap-3 rounded-lg border border-warning/50 bg-warning/15 p-4 text-sm"
      data-testid="comprehension-paused-staff"
    >
      <MessageCircleQuestion className="mt-0.5 size-5 shrink-0" aria-hidden />
      <div className="grid gap-1">
        <p className="font-semibold">{COMPREHENSION_MESSAGES.pausedStaff}</p>
        <p>
          Pedido em {whenInSaoPaulo(new Date(pausedAt))}. Entre em contato com o paciente; depois, use “Reenviar” para
          mandar um novo link, que retoma a assinatura.
        </p>
      </div>
    </div>
  );
}
