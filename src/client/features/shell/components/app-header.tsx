import { useLocation } from "react-router";
import { Separator } from "@/components/ui/separator";
import { SidebarTrigger } from "@/components/ui/sidebar";
import { useCurrentUser } from "@/features/auth";
import { NoticeBell } from "@/features/notices";
import { screenTitle } from "../navigation";

export function AppHeader() {
  const { pathname } = useLocation();
  const { data: user } = useCurrentUser();
  return (
    <header className="sticky top-0 z-20 flex h-14 shrink-0 items-center gap-2 border-b bg-background/95 px-4 backdrop-blur">
      <SidebarTrigger className="-ml-1" />
      <Separator orientation="vertical" className="mr-2 h-4" />
      <span className="truncate text-sm font-medium">{screenTitle(pathname)}</span>
      <span className="ml-auto hidden truncate text-sm text-muted-foreground sm:block">{user?.tenant.nome}</span>
      <span className="ml-auto sm:ml-0">{user ? <NoticeBell /> : null}</span>
    </header>
  );
}
