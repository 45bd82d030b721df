import { PenLine } from "lucide-react";
import { Skeleton } from "@/components/ui/skeleton";
import { SignatureList } from "@/public-pages/components/signature-list";
import { useSignatures } from "../api/signing-api";
import { DocumentReading } from "./document-reading";
import { DocumentComprehension } from "./document-comprehension";
import { DocumentAudio } from "./document-audio";

/** The Signatures block under a signed document (spec part 1 §2), with the staff's full data. */
export function DocumentSignatures({ documentId, status }: { documentId: string; status: string }) {
  const signed = status === "signed";
  const signatures = useSignatures(documentId, signed);
  if (!signed) return null;
  return (
    <section
      className="grid w-full gap-3 rounded-lg border bg-background p-4 shadow-sm sm:p-6"
      aria-labelledby="staff-signatures"
      data-testid="document-signatures"
    >
      <h2 id="staff-signatures" className="flex items-center gap-2 text-base font-semibold">
        <PenLine className="size-4 text-primary" aria-hidden /> Assinaturas
      </h2>
      {signatures.isPending ? (
        <Skeleton className="h-32 w-full" />
      ) : signatures.isError ? (
        <p className="text-sm text-destructive">Não foi possível carregar as assinaturas.</p>
      ) : (
        <>
          <SignatureList signatures={signatures.data} detailed />
          <DocumentComprehension signatures={signatures.data} />
          <DocumentAudio documentId={documentId} signatures={signatures.data} />
          <DocumentReading signatures={signatures.data} />
        </>
      )}
    </section>
  );
}
