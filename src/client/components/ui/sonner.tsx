import * as React from "react";
import type { ToasterProps } from "sonner";

const LazyToaster = React.lazy(() => import("./sonner-toaster"));

/**
 * Contêiner de notificações (sonner). Monte uma única vez perto da raiz do app e dispare
 * notificações com `toast.success("...")`, `toast.error("...")` (import { toast } from "sonner").
 * sonner is a chunk of its own, requested right after the first render instead of inside the
 * first bundle (decision 033); its look is in ./sonner-toaster.tsx.
 */
function Toaster(props: ToasterProps) {
  return (
    <React.Suspense fallback={null}>
      <LazyToaster {...props} />
    </React.Suspense>
  );
}

export { Toaster, type ToasterProps };
