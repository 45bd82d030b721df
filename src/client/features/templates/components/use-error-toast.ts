import { useEffect } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/api";

/** A destructive toast once per failure (spec part 2 §8), besides the error state on the page. */
export function useErrorToast(error: unknown, title: string, skip = false): void {
  useEffect(() => {
    if (error && !skip) toast.error(title, { description: errorMessage(error) });
  }, [error]);
}
