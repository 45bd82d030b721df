import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError, UNEXPECTED_ERROR } from "./api";

/**
 * Puts the server's per-field issues on the form's fields; returns the message to show
 * for the rest (or null when every issue found its field).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  knownFields: readonly string[],
): string | null {
  if (!(error instanceof ApiError)) return UNEXPECTED_ERROR;
  const unplaced: string[] = [];
  for (const issue of error.issues) {
    const root = issue.path.split(".")[0] ?? "";
    if (issue.path && knownFields.includes(root)) {
      setError(issue.path as Path<T>, { type: "server", message: issue.message });
    } else {
      unplaced.push(issue.message);
    }
  }
  if (error.issues.length === 0) return error.message;
  return unplaced.length > 0 ? unplaced.join(" ") : null;
}
