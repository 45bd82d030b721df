import { ArrowRight, Check, RotateCcw } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { formatDateTime } from "@/features/documents";
import { cn } from "@/lib/utils";
import type { Notice } from "@shared/notices/notice-schemas";
import { NoticeIcon } from "./notice-icon";

export interface NoticeHandlers {
  /** Following a notice's link reads it. */
  onOpen(notice: Notice): void;
  onMarkRead(notice: Notice): void;
  /** "Tentar de novo" for a failed Feegow upload; absent for who may not. */
  onRetry?: (notice: Notice) => void;
  retryingId: string | null;
  markingKey: string | null;
}

/** One notice: icon by kind, title (bold while unread), message, time, and what can be done. */
export function NoticeItem({ notice, handlers }: { notice: Notice; handlers: NoticeHandlers }) {
  const unread = !notice.lido;
  const retrying = handlers.retryingId !== null && handlers.retryingId === notice.envio_feegow_id;
  return (
    <li
      data-testid="notice"
      data-kind={notice.tipo}
      data-read={notice.lido ? "true" : "false"}
      className={cn("relative flex gap-3 px-4 py-4 sm:px-5", unread && "bg-primary/5")}
    >
      {unread ? <span aria-hidden className="absolute inset-y-0 left-0 w-1 bg-primary" /> : null}
      <NoticeIcon kind={notice.tipo} />
      <div className="grid min-w-0 flex-1 gap-1">
        <div className="flex items-start gap-2">
          <h2
            className={cn(
              "min-w-0 flex-1 text-sm leading-snug",
              unread ? "font-semibold" : "font-medium text-muted-foreground",
            )}
          >
            {notice.link ? (
              <Link
                to={notice.link}
                onClick={() => handlers.onOpen(notice)}
                className="outline-none hover:underline focus-visible:underline"
              >
                {notice.titulo}
              </Link>
            ) : (
              notice.titulo
            )}
            {unread ? <span className="sr-only"> (não lido)</span> : null}
          </h2>
          {unread ? <span aria-hidden className="mt-1.5 size-2 shrink-0 rounded-full bg-primary" /> : null}
        </div>
        <p className={cn("text-sm break-words", unread ? "text-foreground" : "text-muted-foreground")}>
          {notice.mensagem}
        </p>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 pt-1">
          <time dateTime={notice.em} className="basis-full text-xs text-muted-foreground tabular-nums sm:basis-auto">
            {formatDateTime(notice.em)}
          </time>
          <div className="flex flex-wrap items-center gap-1 sm:ml-auto sm:gap-2">
            {handlers.onRetry && notice.envio_feegow_id ? (
              <Button size="sm" variant="outline" onClick={() => handlers.onRetry?.(notice)} disabled={retrying}>
                {retrying ? <Spinner /> : <RotateCcw />} Tentar de novo
              </Button>
            ) : null}
            {notice.link ? (
              <Button size="sm" variant="ghost" asChild>
                <Link to={notice.link} onClick={() => handlers.onOpen(notice)} aria-label={`Abrir: ${notice.titulo}`}>
                  Abrir <ArrowRight />
                </Link>
              </Button>
            ) : null}
            {unread ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() => handlers.onMarkRead(notice)}
                disabled={handlers.markingKey === notice.chave}
                aria-label={`Marcar como lido: ${notice.titulo}`}
              >
                <Check /> <span className="hidden sm:inline">Marcar como lido</span>
              </Button>
            ) : null}
          </div>
        </div>
      </div>
    </li>
  );
}
