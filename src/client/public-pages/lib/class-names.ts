import { type ClassValue, clsx } from "clsx";

/**
 * `cn` for the public bundle (vite.config.ts points `@/lib/utils` here when building sign.html):
 * class joining without tailwind-merge's conflict resolution, which is ~8 kB gzipped. The shared
 * components the public pages draw (DocumentView, Logo) are used without conflicting classes.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
