import type * as React from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";

/** A submit button that shows a spinner and is disabled while the form is being sent. */
export function SubmitButton({
  pending,
  children,
  ...props
}: { pending: boolean } & Omit<React.ComponentProps<typeof Button>, "type" | "disabled">) {
  return (
    <Button type="submit" disabled={pending} {...props}>
      {pending ? <Spinner /> : null} {children}
    </Button>
  );
}
