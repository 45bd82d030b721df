import type * as React from "react";
import { Tooltip, TooltipContent, TooltipTrigger } from "@/components/ui/tooltip";

export interface SidebarMenuTooltipProps {
  content: React.ComponentProps<typeof TooltipContent>;
  children: React.ReactElement;
}

/**
 * The label beside an icon of the collapsed desktop sidebar. Its own chunk (Radix Tooltip and
 * floating-ui), loaded only once the sidebar is collapsed (decision 033).
 */
export default function SidebarMenuTooltip({ content, children }: SidebarMenuTooltipProps) {
  return (
    <Tooltip delayDuration={0}>
      <TooltipTrigger asChild>{children}</TooltipTrigger>
      <TooltipContent side="right" align="center" {...content} />
    </Tooltip>
  );
}
