import { ApiError } from "@/lib/api";

/**
 * True when the API says the patient is not there: 404 for an unknown id or another clinic's,
 * and 400 for an id that is not even a UUID (the route validates its params first).
 */
export function isPatientNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || (error.status === 400 && error.code === "VALIDATION"));
}
