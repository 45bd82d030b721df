import { BookOpen } from "lucide-react";
import { formatOnScreen, type ReadingSummary } from "@shared/reading/reading-record";
import type { SignatureSummary } from "@shared/schemas/signing";

/**
 * The reading record of each signer (decision 052), as their device reported it: per section, the
 * time on screen with the page in the foreground, or "não exibida"; the jump, "Ouvir", large text.
 */
export function DocumentReading({ signatures }: { signatures: SignatureSummary[] }) {
  const withRecord = signatures.filter((s) => s.papel !== "profissional");
  if (withRecord.length === 0) return null;
  return (
    <div className="grid gap-3" data-testid="document-reading">
      <h3 className="flex items-center gap-2 text-sm font-semibold">
        <BookOpen className="size-4 text-primary" aria-hidden /> Registro de leitura
      </h3>
      <p className="text-xs text-muted-foreground">
        Registrado pelo aparelho do signatário (não conferido): mostra quanto tempo cada seção ficou na tela, não que o
        conteúdo foi compreendido.
      </p>
      {withRecord.map((signature) => (
        <SignerReading
          key={`${signature.papel}-${signature.assinou_em}`}
          nome={signature.nome}
          leitura={signature.leitura ?? null}
        />
      ))}
    </div>
  );
}

function SignerReading({ nome, leitura }: { nome: string; leitura: ReadingSummary | null }) {
  return (
    <div className="grid gap-1 rounded-md border p-3 text-sm">
      <p className="font-medium">{nome}</p>
      {leitura ? (
        <>
          <ul className="grid gap-0.5">
            {leitura.secoes.map((s) => (
              <li key={s.id} className="flex flex-wrap justify-between gap-2">
                <span className="break-words">{s.titulo || s.id}</span>
                <span className={s.exibida ? "tabular-nums" : "text-muted-foreground"}>
                  {s.exibida ? `na tela por ${formatOnScreen(s.ms)}` : "não exibida"}
                </span>
              </li>
            ))}
          </ul>
          <p className="text-xs text-muted-foreground">
            “Ir para a assinatura”: {leitura.salto ? "usado" : "não usado"}
            {leitura.ouvir.length > 0 ? ` · “Ouvir” usado em ${leitura.ouvir.length} seção(ões)` : ""}
            {leitura.texto_grande ? " · texto grande ativado" : ""}
          </p>
        </>
      ) : (
        <p className="text-xs text-muted-foreground">O aparelho não enviou registro de leitura.</p>
      )}
    </div>
  );
}
