import { useQueryClient } from "@tanstack/react-query";
import { BellOff, CheckCheck } from "lucide-react";
import type * as React from "react";
import { useState } from "react";
import { toast } from "sonner";
import { LoadError } from "@/components/list/load-error";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Spinner } from "@/components/ui/spinner";
import { useCurrentUser } from "@/features/auth";
import { useRetryFeegowUpload } from "@/features/integration";
import { errorMessage } from "@/lib/api";
import { profileCan } from "@shared/permissions";
import { FEEGOW_IMPORT_MESSAGES } from "@shared/schemas/feegow";
import type { Notice } from "@shared/notices/notice-schemas";
import { noticeKeys, useMarkNoticesRead, useNotices, useUnreadNotices } from "../api/notices-api";
import { type NoticeHandlers, NoticeItem } from "./notice-item";
import { NoticesSkeleton } from "./notices-skeleton";

/**
 * /notifications, "Avisos" (decision 028): what needs the user's attention — documents
 * viewed and not signed, about to expire, signed since the last visit; e-mails not delivered;
 * Feegow uploads that failed ("Tentar de novo" here); certificates expiring; system notices.
 */
export function NoticesPage() {
  const queryClient = useQueryClient();
  const { data: user } = useCurrentUser();
  const notices = useNotices();
  const unread = useUnreadNotices().data?.nao_lidos ?? 0;
  const markRead = useMarkNoticesRead();
  const retry = useRetryFeegowUpload();
  const [retryingId, setRetryingId] = useState<string | null>(null);
  const [markingKey, setMarkingKey] = useState<string | null>(null);
  const canRetry = profileCan(user?.profile, "documents.write");

  const read = async (notice: Notice, quiet: boolean) => {
    if (notice.lido) return;
    setMarkingKey(notice.chave);
    try {
      await markRead.mutateAsync({ chaves: [notice.chave] });
    } catch (error) {
      // Following a link reads the notice on the way; a notice already resolved needs no toast then.
      if (!quiet) toast.error("Não foi possível marcar o aviso como lido", { description: errorMessage(error) });
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
    } finally {
      setMarkingKey(null);
    }
  };

  const handlers: NoticeHandlers = {
    onOpen: (notice) => void read(notice, true),
    onMarkRead: (notice) => void read(notice, false),
    onRetry: canRetry
      ? (notice) => {
          const id = notice.envio_feegow_id;
          if (!id) return;
          setRetryingId(id);
          retry
            .mutateAsync(id)
            .then(
              () => {
                toast.success(FEEGOW_IMPORT_MESSAGES.uploadQueued, {
                  description: "O PDF entrou de novo na fila de envio ao Feegow.",
                });
                void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
              },
              (error: unknown) => toast.error("Não foi possível tentar de novo", { description: errorMessage(error) }),
            )
            .finally(() => setRetryingId(null));
        }
      : undefined,
    retryingId,
    markingKey,
  };

  async function markAll() {
    try {
      await markRead.mutateAsync({ todas: true });
      toast.success("Todos os avisos foram marcados como lidos");
    } catch (error) {
      toast.error("Não foi possível marcar os avisos como lidos", { description: errorMessage(error) });
    }
  }

  const items = notices.data?.pages.flatMap((page) => page.items) ?? [];
  let body: React.ReactNode;
  if (notices.isPending) {
    body = <NoticesSkeleton />;
  } else if (notices.isError) {
    body = (
      <div className="p-4">
        <LoadError
          title="Não foi possível carregar os avisos"
          message={errorMessage(notices.error)}
          onRetry={() => void notices.refetch()}
          retrying={notices.isFetching}
        />
      </div>
    );
  } else if (items.length === 0) {
    body = (
      <div className="p-4">
        <EmptyState
          icon={<BellOff />}
          title="Nenhum aviso no momento"
          description="Documentos abertos e não assinados, prazos vencendo, assinaturas novas e falhas de envio aparecem aqui."
        />
      </div>
    );
  } else {
    body = (
      <ul className="divide-y" data-testid="notices-list" aria-label="Avisos">
        {items.map((notice) => (
          <NoticeItem key={notice.chave} notice={notice} handlers={handlers} />
        ))}
      </ul>
    );
  }

  return (
    <div className="grid min-w-0 gap-6">
      <PageHeader
        title="Avisos"
        description={
          unread > 0
            ? `${unread > 99 ? "Mais de 99" : unread} ${unread === 1 ? "aviso não lido" : "avisos não lidos"}`
            : "O que precisa da sua atenção"
        }
        actions={
          <Button variant="outline" onClick={() => void markAll()} disabled={unread === 0 || markRead.isPending}>
            {markRead.isPending && !markingKey ? <Spinner /> : <CheckCheck />} Marcar todas como lidas
          </Button>
        }
      />
      <Card className="gap-0 overflow-hidden py-0">
        {body}
        {notices.hasNextPage ? (
          <div className="border-t p-3 text-center">
            <Button variant="ghost" onClick={() => void notices.fetchNextPage()} disabled={notices.isFetchingNextPage}>
              {notices.isFetchingNextPage ? <Spinner /> : null} Carregar mais avisos
            </Button>
          </div>
        ) : null}
      </Card>
    </div>
  );
}
