/** True when `error` (or one it wraps) is PostgreSQL's unique_violation (23505). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  let current: unknown = error;
  while (current && typeof current === "object") {
    const { code, constraint: name } = current as { code?: unknown; constraint?: unknown };
    if (code === "23505") return constraint === undefined || name === undefined || name === constraint;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
