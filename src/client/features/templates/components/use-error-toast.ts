import { useEffect, useEffectEvent } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/api";

/** A destructive toast once per failure (spec part 2 §8), besides the error state on the page. */
export function useErrorToast(error: unknown, title: string, skip = false): void {
  // Once per new error: a changed title or skip alone shows nothing.
  const show = useEffectEvent((failure: unknown) => {
    if (failure && !skip) toast.error(title, { description: errorMessage(failure) });
  });
  useEffect(() => show(error), [error]);
}
