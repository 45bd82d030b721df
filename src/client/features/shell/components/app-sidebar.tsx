import { LogOut, UserRound } from "lucide-react";
import { useEffect } from "react";
import { NavLink, useLocation, useNavigate } from "react-router";
import { Logo } from "@/components/brand/logo";
import { PrefetchNavLink, usePrefetchWhenIdle } from "@/components/routing/prefetch";
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarRail,
  useSidebar,
} from "@/components/ui/sidebar";
import { useCurrentUser, useSignOut } from "@/features/auth";
import { likelyNextScreensFor, sidebarFor } from "../navigation";

export function AppSidebar() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { data: user } = useCurrentUser();
  const signOut = useSignOut();
  const { isMobile, setOpenMobile } = useSidebar();

  useEffect(() => {
    if (isMobile) setOpenMobile(false);
  }, [pathname, isMobile, setOpenMobile]);

  async function onSignOut() {
    try {
      await signOut.mutateAsync();
    } catch {
      // sonner is not in the first load (decision 033): its chunk is already there by now.
      void import("sonner").then(({ toast }) => toast.error("Não foi possível encerrar a sessão no servidor."));
    }
    navigate("/auth", { replace: true });
  }

  const groups = sidebarFor(user);
  // Only the likely next screens when idle; the other links load theirs on hover, focus or touch.
  usePrefetchWhenIdle(likelyNextScreensFor(user));

  const isActive = (to: string) => (to === "/" ? pathname === "/" : pathname === to || pathname.startsWith(`${to}/`));

  return (
    <Sidebar collapsible="icon">
      <nav aria-label="Menu principal" className="flex min-h-0 flex-1 flex-col">
        <SidebarHeader>
          <NavLink to="/" className="flex items-center gap-2 px-1 py-1.5" aria-label="Consentir — início">
            <Logo className="group-data-[collapsible=icon]:hidden" />
            <Logo compact className="hidden group-data-[collapsible=icon]:inline-flex" />
          </NavLink>
        </SidebarHeader>
        <SidebarContent>
          {groups.map((group) => (
            <SidebarGroup key={group.label}>
              <SidebarGroupLabel>{group.label}</SidebarGroupLabel>
              <SidebarGroupContent>
                <SidebarMenu>
                  {group.items.map((item) => (
                    <SidebarMenuItem key={item.to}>
                      <SidebarMenuButton asChild isActive={isActive(item.to)} tooltip={item.label}>
                        <PrefetchNavLink to={item.to} end={item.to === "/"}>
                          <item.icon />
                          <span>{item.label}</span>
                        </PrefetchNavLink>
                      </SidebarMenuButton>
                    </SidebarMenuItem>
                  ))}
                </SidebarMenu>
              </SidebarGroupContent>
            </SidebarGroup>
          ))}
        </SidebarContent>
        <SidebarFooter>
          <p
            className="truncate px-2 text-xs text-muted-foreground group-data-[collapsible=icon]:hidden"
            data-testid="sidebar-user-email"
          >
            {user?.profile.email}
          </p>
          <SidebarMenu>
            <SidebarMenuItem>
              <SidebarMenuButton asChild isActive={pathname === "/profile"} tooltip="Meu perfil">
                <NavLink to="/profile" end>
                  <UserRound />
                  <span>Meu perfil</span>
                </NavLink>
              </SidebarMenuButton>
            </SidebarMenuItem>
            <SidebarMenuItem>
              <SidebarMenuButton tooltip="Sair" onClick={() => void onSignOut()} disabled={signOut.isPending}>
                <LogOut />
                <span>Sair</span>
              </SidebarMenuButton>
            </SidebarMenuItem>
          </SidebarMenu>
        </SidebarFooter>
      </nav>
      <SidebarRail />
    </Sidebar>
  );
}
