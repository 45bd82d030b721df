/** A small spinning ring (the kit's Spinner carries tailwind-merge). */
export function Spinner({ label = "Carregando", large = false }: { label?: string; large?: boolean }) {
  return (
    <svg
      role="status"
      aria-label={label}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      className={`animate-spin ${large ? "size-6 text-primary" : "size-4"}`}
    >
      <path d="M21 12a9 9 0 1 1-6.219-8.56" />
    </svg>
  );
}
