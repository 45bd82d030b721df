import { BellRing, MessageCircle } from "lucide-react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { WHATSAPP_KIND_LABEL, WHATSAPP_STATUS_LABEL } from "@shared/schemas/reminders";
import { useDocumentMessages } from "../api/messages-api";
import { formatDateTime } from "../lib/format";

/**
 * The document page's "Lembretes e mensagens" (decision 059): each automatic reminder ("Lembrete
 * enviado em …", by which channels) and each WhatsApp message with its last delivery status.
 * Nothing is shown while there is nothing to show.
 */
export function DocumentMessagesCard({ documentId, status }: { documentId: string; status: string }) {
  const messages = useDocumentMessages(documentId, status !== "draft");
  const data = messages.data;
  if (!data || (data.lembretes.length === 0 && data.whatsapp.length === 0)) return null;
  return (
    <Card className="gap-3 py-4" data-testid="document-messages">
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base">Lembretes e mensagens</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 px-4 text-sm sm:px-6">
        {data.lembretes.length > 0 ? (
          <ul className="grid gap-1" aria-label="Lembretes enviados">
            {data.lembretes.map((r) => (
              <li key={r.ordem} className="flex items-start gap-2" data-testid="reminder-line">
                <BellRing className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden />
                <span>
                  Lembrete enviado em {formatDateTime(r.enviado_em)}
                  <span className="text-muted-foreground"> · {r.canais.join(", ")}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {data.whatsapp.length > 0 ? (
          <ul className="grid gap-1" aria-label="Mensagens de WhatsApp">
            {data.whatsapp.map((m) => (
              <li key={m.id} className="flex items-start gap-2" data-testid="whatsapp-line">
                <MessageCircle className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden />
                <span>
                  WhatsApp · {WHATSAPP_KIND_LABEL[m.tipo] ?? m.tipo} para {m.destino}:{" "}
                  <span className={m.status === "failed" ? "font-medium text-destructive" : "font-medium"}>
                    {WHATSAPP_STATUS_LABEL[m.status] ?? m.status}
                  </span>
                  {m.status_em ? (
                    <span className="text-muted-foreground"> em {formatDateTime(m.status_em)}</span>
                  ) : null}
                  {m.erro && m.status !== "delivered" && m.status !== "read" ? (
                    <span className="block text-xs text-muted-foreground">{m.erro}</span>
                  ) : null}
                  {m.fallback ? (
                    <span className="block text-xs font-medium" data-testid="whatsapp-fallback">
                      {m.fallback === "sms"
                        ? "Reenviado por SMS"
                        : m.fallback === "email"
                          ? "Reenviado por e-mail"
                          : "Sem SMS ou e-mail para reenviar: envie o link de outra forma"}
                    </span>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </CardContent>
    </Card>
  );
}
