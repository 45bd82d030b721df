import { Outlet } from "react-router";
import { SidebarInset, SidebarProvider } from "@/components/ui/sidebar";
import { MAIN_CONTENT_ID, SkipLink } from "@/components/ui/skip-link";
import { useLiveUpdates } from "@/features/live";
import { AppHeader } from "./app-header";
import { AppSidebar } from "./app-sidebar";
import { MobileBottomBar } from "./mobile-bottom-bar";
import { useScreenChange } from "./use-screen-change";

/** Every signed-in screen: skip link, sidebar (<nav>), header, one <main>, and the bottom bar on phones. */
export function AppLayout() {
  useLiveUpdates();
  useScreenChange();
  return (
    <SidebarProvider>
      <SkipLink />
      <AppSidebar />
      <SidebarInset>
        <AppHeader />
        <main id={MAIN_CONTENT_ID} tabIndex={-1} className="flex-1 p-4 pb-24 outline-none md:p-6 md:pb-6">
          <Outlet />
        </main>
      </SidebarInset>
      <MobileBottomBar />
    </SidebarProvider>
  );
}
