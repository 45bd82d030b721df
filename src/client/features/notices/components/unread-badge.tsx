import { cn } from "@/lib/utils";
import { unreadLabel } from "../api/notices-api";

/** The red pill with the unread count ("99+" past 99); nothing when everything is read. */
export function UnreadBadge({ count, className }: { count: number | undefined; className?: string }) {
  const label = unreadLabel(count);
  if (!label) return null;
  return (
    <span
      data-testid="notices-unread-badge"
      aria-hidden
      className={cn(
        "inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-destructive px-1 text-[10px] leading-none font-semibold text-destructive-foreground tabular-nums",
        className,
      )}
    >
      {label}
    </span>
  );
}

/** What a screen reader hears for the bell and the phone bar's entry. */
export function unreadDescription(count: number | undefined): string {
  if (!count) return "Avisos";
  return count === 1 ? "Avisos: 1 não lido" : `Avisos: ${unreadLabel(count)} não lidos`;
}
