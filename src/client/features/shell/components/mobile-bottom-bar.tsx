import { PrefetchNavLink } from "@/components/routing/prefetch";
import { useCurrentUser } from "@/features/auth";
import { useUnreadNotices } from "@/features/notices";
import { UnreadBadge, unreadDescription } from "@/features/notices";
import { cn } from "@/lib/utils";
import { bottomBarFor } from "../navigation";

/** Under 768 px: Novo, Assinar, Avisos, Perfil (spec part 1 §2), each only for who may use it. */
export function MobileBottomBar() {
  const { data: user } = useCurrentUser();
  const items = bottomBarFor(user);
  const unread = useUnreadNotices(Boolean(user)).data?.nao_lidos;
  return (
    <nav
      aria-label="Navegação rápida"
      data-testid="mobile-bottom-bar"
      className="fixed inset-x-0 bottom-0 z-30 border-t bg-background/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:hidden"
    >
      <ul className="grid" style={{ gridTemplateColumns: `repeat(${items.length}, minmax(0, 1fr))` }}>
        {items.map((item) => (
          <li key={item.to}>
            <PrefetchNavLink
              to={item.to}
              aria-label={item.to === "/notifications" ? unreadDescription(unread) : undefined}
              className={({ isActive }) =>
                cn(
                  // Label first in the DOM (icon drawn above it), a space before a badge: the visible text "Avisos 2"
                  // reads in the order of the name "Avisos: 2 não lidos" (WCAG 2.5.3).
                  "flex min-h-14 flex-col-reverse items-center justify-center gap-0.5 text-xs text-muted-foreground",
                  isActive && "font-medium text-primary",
                )
              }
            >
              <span>{item.label}</span>
              {item.to === "/notifications" && unread ? " " : null}
              <span className="relative">
                <item.icon className="size-5" aria-hidden />
                {item.to === "/notifications" ? (
                  <UnreadBadge count={unread} className="absolute -top-1.5 -right-2.5" />
                ) : null}
              </span>
            </PrefetchNavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
