import { Skeleton } from "@/components/ui/skeleton";

/** Placeholder rows while the first page loads (table shape on desktop, cards on phones). */
export function ListSkeleton({
  mobile,
  rows = 5,
  label = "Carregando",
}: {
  mobile: boolean;
  rows?: number;
  label?: string;
}) {
  return (
    <div aria-busy="true" data-testid="list-loading">
      <span className="sr-only">{label}</span>
      <ul className="grid divide-y">
        {Array.from({ length: rows }, (_, index) => (
          <li key={index} className={mobile ? "grid gap-2 px-4 py-3" : "flex items-center gap-6 px-4 py-3"}>
            {mobile ? (
              <>
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-3 w-1/3" />
                <Skeleton className="h-3 w-1/2" />
              </>
            ) : (
              <>
                <div className="grid flex-1 gap-1.5">
                  <Skeleton className="h-4 w-48" />
                  <Skeleton className="h-3 w-36" />
                </div>
                <Skeleton className="h-4 w-28" />
                <Skeleton className="hidden h-4 w-28 lg:block" />
                <Skeleton className="h-4 w-16" />
                <Skeleton className="size-8" />
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
