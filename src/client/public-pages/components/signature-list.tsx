import { CheckCircle2 } from "lucide-react";
import type { SignatureSummary } from "@shared/schemas/signing";
import { signatureLevelBadge, signaturePlaceholder } from "@shared/signing-method";
import { formatDateTime, methodLabel } from "../lib/format";

/**
 * The Signatures block (spec part 1 §2): name, CPF, 'Assinado' badge, date/time, method badge,
 * the drawn image (or, without one, 'Assinatura Digital' for a certificate signature and what it is
 * otherwise: signing-method.ts); with `detailed`, also e-mail, phone, IP and user
 * agent (staff screens). Plain Tailwind: the public bundle and the staff app both draw it.
 */
export function SignatureList({
  signatures,
  detailed = false,
}: {
  signatures: readonly SignatureSummary[];
  detailed?: boolean;
}) {
  if (signatures.length === 0) {
    return <p className="text-sm text-muted-foreground">Documento ainda não foi assinado</p>;
  }
  return (
    // Two columns by the list's own width, not the window's: beside the staff sidebar a tablet
    // leaves too little room for the data and the 280 px signature side by side.
    <ul className="@container grid gap-3" aria-label="Assinaturas" data-testid="signature-list">
      {signatures.map((signature, index) => (
        <li
          key={`${signature.assinou_em}-${index}`}
          className="grid gap-3 rounded-lg border bg-background p-3 @xl:grid-cols-[minmax(0,1fr)_auto] sm:p-4"
          data-testid="signature-item"
        >
          <div className="grid min-w-0 gap-1.5 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-semibold [overflow-wrap:anywhere]">{signature.nome}</span>
              <span className="inline-flex items-center gap-1 rounded-md border border-success/30 bg-success/15 px-2 py-0.5 text-xs font-medium text-[color-mix(in_oklab,var(--color-success)_60%,black)]">
                <CheckCircle2 className="size-3" aria-hidden /> Assinado
              </span>
              <span className="inline-flex items-center rounded-md border px-2 py-0.5 text-xs font-medium">
                {methodLabel(signature.metodo_assinatura)}
              </span>
              <span
                className="inline-flex items-center rounded-md border px-2 py-0.5 text-xs font-medium"
                data-testid="signature-level-badge"
              >
                {signatureLevelBadge(signature)}
              </span>
              {signature.tipo_assinatura === "digitada" ? (
                <span className="inline-flex items-center rounded-md border px-2 py-0.5 text-xs font-medium">
                  Digitada
                </span>
              ) : null}
            </div>
            {signature.qualidade ? <Line label="Qualidade" value={signature.qualidade} /> : null}
            <Line label="CPF" value={signature.cpf} />
            <Line label="Assinado em" value={formatDateTime(signature.assinou_em)} />
            {detailed ? (
              <>
                <Line label="E-mail" value={signature.email} />
                <Line label="Telefone" value={signature.telefone ?? "Não informado"} />
                <Line
                  label="IP"
                  value={
                    signature.ip_address
                      ? `${signature.ip_address}${signature.porta_origem ? ` (porta ${signature.porta_origem})` : ""}`
                      : "—"
                  }
                />
                <Line label="Dispositivo" value={signature.dispositivo ?? "—"} />
                <Line label="Navegador" value={signature.user_agent ?? "—"} />
              </>
            ) : null}
          </div>
          <div className="grid h-[120px] w-full max-w-[280px] place-items-center justify-self-center rounded-md border border-dashed bg-white @xl:w-[280px]">
            {signature.assinatura ? (
              <img
                src={signature.assinatura}
                alt={`Assinatura de ${signature.nome}`}
                className="max-h-[116px] max-w-full object-contain"
                width={280}
                height={120}
              />
            ) : (
              <span className="px-3 text-center text-sm text-muted-foreground italic">
                {signaturePlaceholder(signature)}
              </span>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

function Line({ label, value }: { label: string; value: string }) {
  return (
    <p className="text-xs [overflow-wrap:anywhere] text-muted-foreground">
      {label}: <span className="text-foreground/90">{value}</span>
    </p>
  );
}
