import { useQuery } from "@tanstack/react-query";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Spinner } from "@/components/ui/spinner";
import { api } from "@/lib/api";
import { formatDateTime } from "@shared/format";

interface OutboxItem {
  id: string;
  to: string;
  subject: string;
  text: string;
  status: string;
  created_at: string;
}

/** Development only: the e-mails the app would have sent (the API route exists only outside production). */
export function DevOutboxPage() {
  const { data, isPending, isError } = useQuery({
    queryKey: ["dev", "outbox"],
    queryFn: () => api<{ items: OutboxItem[] }>("/api/dev/outbox"),
    refetchInterval: 5000,
  });
  return (
    <main className="mx-auto grid max-w-3xl gap-6 p-4 md:p-8">
      <PageHeader
        title="Caixa de saída (desenvolvimento)"
        description="E-mails que seriam enviados por SMTP. Atualiza a cada 5 segundos."
      />
      {isPending ? <Spinner /> : null}
      {isError ? <p>Caixa de saída indisponível (só existe fora de produção).</p> : null}
      {data && data.items.length === 0 ? <EmptyState title="Nenhum e-mail ainda" /> : null}
      {data?.items.map((item) => (
        <Card key={item.id}>
          <CardHeader>
            <CardTitle>{item.subject}</CardTitle>
            <CardDescription>
              Para {item.to} · {formatDateTime(item.created_at)} · {item.status}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <pre className="whitespace-pre-wrap break-words font-sans text-sm">{item.text}</pre>
          </CardContent>
        </Card>
      ))}
    </main>
  );
}
