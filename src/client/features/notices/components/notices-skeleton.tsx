import { Skeleton } from "@/components/ui/skeleton";

/** Placeholder notices while the first page loads. */
export function NoticesSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <div aria-busy="true" data-testid="notices-loading">
      <span className="sr-only">Carregando avisos</span>
      <ul className="grid divide-y">
        {Array.from({ length: rows }, (_, index) => (
          <li key={index} className="flex gap-3 px-4 py-4">
            <Skeleton className="size-9 rounded-full" />
            <div className="grid flex-1 gap-2">
              <Skeleton className="h-4 w-48" />
              <Skeleton className="h-3 w-full max-w-md" />
              <Skeleton className="h-3 w-28" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
