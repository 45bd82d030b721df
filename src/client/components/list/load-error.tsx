import { AlertTriangle, RotateCcw } from "lucide-react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";

/** A failed fetch, with the server's message and a retry. */
export function LoadError({
  title,
  message,
  onRetry,
  retrying,
}: {
  title: string;
  message: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  return (
    <EmptyState
      icon={<AlertTriangle />}
      title={title}
      description={message}
      className="border-destructive/40"
      role="alert"
      action={
        <Button variant="outline" onClick={onRetry} disabled={retrying}>
          <RotateCcw className={retrying ? "animate-spin" : undefined} /> Tentar novamente
        </Button>
      }
    />
  );
}
