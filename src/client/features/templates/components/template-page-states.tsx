import { FileQuestion } from "lucide-react";
import { Link } from "react-router";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import { TEMPLATE_MESSAGES } from "@shared/schemas/template";

/** An unknown template id, or one of another clinic: the same answer for both. */
export function TemplateNotFound() {
  return (
    <EmptyState
      icon={<FileQuestion />}
      title={TEMPLATE_MESSAGES.notFound}
      description="O template que você procura não existe ou foi excluído."
      action={
        <Button asChild>
          <Link to="/templates">{TEMPLATE_MESSAGES.backToTemplates}</Link>
        </Button>
      }
    />
  );
}

/** Placeholder of a template screen while it loads: header, a card of fields and a body. */
export function TemplatePageSkeleton({ label = "Carregando template" }: { label?: string }) {
  return (
    <div className="grid gap-6" aria-busy="true" data-testid="template-loading">
      <span className="sr-only">{label}</span>
      <div className="grid gap-2">
        <Skeleton className="h-8 w-64 max-w-full" />
        <Skeleton className="h-4 w-40" />
      </div>
      <Card>
        <CardContent className="grid gap-4 sm:grid-cols-2">
          {[0, 1, 2].map((field) => (
            <div key={field} className="grid gap-2">
              <Skeleton className="h-4 w-24" />
              <Skeleton className="h-9 w-full" />
            </div>
          ))}
        </CardContent>
      </Card>
      <Card>
        <CardContent className="grid gap-3">
          {[0, 1, 2, 3, 4].map((line) => (
            <Skeleton key={line} className="h-4 w-full" />
          ))}
          <Skeleton className="h-4 w-2/3" />
        </CardContent>
      </Card>
    </div>
  );
}
