import { useQuery } from "@tanstack/react-query";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Spinner } from "@/components/ui/spinner";
import { api, errorMessage } from "@/lib/api";
import type { SigningLink } from "@shared/schemas/signing";

/**
 * The patient's signing link as a QR code, for them to open on their own phone. Fetching the link
 * is an audit event naming the staff member ("link exibido em QR code").
 */
export function LinkQrDialog({
  documentId,
  onOpenChange,
}: {
  documentId: string | null;
  onOpenChange: (open: boolean) => void;
}) {
  const qr = useQuery({
    queryKey: ["documents", documentId, "link-qr"],
    queryFn: async ({ signal }) => {
      const link = await api<SigningLink>(`/api/documents/${encodeURIComponent(documentId!)}/link?via=qr`, { signal });
      // Loaded on first use: the QR encoder stays out of the main bundle.
      const QRCode = (await import("qrcode")).default;
      return { link, image: await QRCode.toDataURL(link.link, { errorCorrectionLevel: "M", margin: 2, scale: 8 }) };
    },
    enabled: documentId !== null,
    gcTime: 0,
    staleTime: 0,
    retry: false,
  });
  return (
    <Dialog open={documentId !== null} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-sm">
        <DialogHeader>
          <DialogTitle>QR code para assinar</DialogTitle>
          <DialogDescription>
            O paciente aponta a câmera do próprio celular para abrir o documento e assinar.
          </DialogDescription>
        </DialogHeader>
        <div className="grid place-items-center gap-3 py-2" aria-live="polite">
          {qr.isPending ? (
            <Spinner className="size-6" label="Gerando QR code" />
          ) : qr.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {errorMessage(qr.error)}
            </p>
          ) : (
            <>
              <img
                src={qr.data.image}
                alt="QR code do link de assinatura"
                className="size-64 rounded-md border bg-white p-2"
                data-testid="signing-qr"
              />
              <p className="text-center text-xs text-muted-foreground break-all">{qr.data.link.link}</p>
            </>
          )}
        </div>
      </DialogContent>
    </Dialog>
  );
}
