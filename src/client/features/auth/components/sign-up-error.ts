import { ApiError } from "@/lib/api";

/**
 * Spec part 1 §8: server messages are shown as they are ('Este email já está cadastrado…',
 * the rate-limit message…); anything unexpected shows the form's own fallback.
 */
export function signUpErrorMessage(error: unknown, serverMessage: string, fallback: string): string {
  if (error instanceof ApiError && error.code !== "INTERNAL") return serverMessage;
  return fallback;
}
