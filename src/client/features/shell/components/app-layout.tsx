import { Outlet } from "react-router";
import { SidebarInset, SidebarProvider } from "@/components/ui/sidebar";
import { useLiveUpdates } from "@/features/live/use-live-updates";
import { AppHeader } from "./app-header";
import { AppSidebar } from "./app-sidebar";
import { MobileBottomBar } from "./mobile-bottom-bar";

/** Every signed-in screen: sidebar, header, content, and the bottom bar on phones. */
export function AppLayout() {
  useLiveUpdates();
  return (
    <SidebarProvider>
      <AppSidebar />
      <SidebarInset>
        <AppHeader />
        <div className="flex-1 p-4 pb-24 md:p-6 md:pb-6">
          <Outlet />
        </div>
      </SidebarInset>
      <MobileBottomBar />
    </SidebarProvider>
  );
}
