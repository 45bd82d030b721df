import { Alert, AlertDescription } from "@/components/ui/alert";

/** The red alert under a form for an error that belongs to no single field. */
export function FormErrorAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Alert variant="destructive">
      <AlertDescription>{message}</AlertDescription>
    </Alert>
  );
}
