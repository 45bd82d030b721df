import { Bell } from "lucide-react";
import { NavLink } from "react-router";
import { cn } from "@/lib/utils";
import { useUnreadNotices } from "../api/notices-api";
import { UnreadBadge, unreadDescription } from "./unread-badge";

/** The header's bell: the unread count, a link to Avisos. */
export function NoticeBell() {
  const unread = useUnreadNotices().data?.nao_lidos;
  return (
    <NavLink
      to="/notifications"
      data-testid="notices-bell"
      aria-label={unreadDescription(unread)}
      title={unreadDescription(unread)}
      className={({ isActive }) =>
        cn(
          "relative inline-flex size-9 items-center justify-center rounded-md text-muted-foreground outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50",
          isActive && "text-primary",
        )
      }
    >
      <Bell className="size-5" aria-hidden />
      <UnreadBadge count={unread} className="absolute -top-0.5 -right-0.5" />
    </NavLink>
  );
}
