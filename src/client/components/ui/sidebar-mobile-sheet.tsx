import type * as React from "react";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "@/components/ui/sheet";

export interface SidebarMobileSheetProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  side: "left" | "right";
  title: string;
  width: string;
  children: React.ReactNode;
}

/**
 * The sidebar on phones: a sheet (Radix Dialog). Its own chunk, loaded on idle or at the first tap
 * on the menu button, so the dialog code is not in the first load (decision 033).
 */
export default function SidebarMobileSheet({
  open,
  onOpenChange,
  side,
  title,
  width,
  children,
}: SidebarMobileSheetProps) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        data-slot="sidebar"
        data-sidebar="sidebar"
        data-mobile="true"
        side={side}
        showCloseButton={false}
        className="w-(--sidebar-width-mobile) gap-0 bg-sidebar p-0 text-sidebar-foreground sm:max-w-(--sidebar-width-mobile)"
        style={{ "--sidebar-width-mobile": width } as React.CSSProperties}
      >
        <SheetHeader className="sr-only">
          <SheetTitle>{title}</SheetTitle>
          <SheetDescription>Navegação principal</SheetDescription>
        </SheetHeader>
        <div className="flex h-full w-full flex-col">{children}</div>
      </SheetContent>
    </Sheet>
  );
}
