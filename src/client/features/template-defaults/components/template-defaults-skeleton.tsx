import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";

/** Placeholder of the form while the saved defaults load. */
export function TemplateDefaultsSkeleton() {
  return (
    <Card aria-busy="true" aria-label="Carregando templates">
      <CardContent className="grid gap-6">
        {[0, 1, 2].map((i) => (
          <div key={i} className="grid gap-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-3 w-64 max-w-full" />
          </div>
        ))}
        <div className="grid gap-2">
          <Skeleton className="h-4 w-48" />
          <Skeleton className="h-9 w-full sm:w-64" />
        </div>
        <Skeleton className="h-9 w-full sm:ml-auto sm:w-40" />
      </CardContent>
    </Card>
  );
}
