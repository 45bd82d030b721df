/**
 * The open live-update streams (features/live), so signing out can close them first: a stream or
 * a read still in flight when the session ends would be answered 401 — a needless error in the
 * console, and a race the browser tests caught.
 */
const stops = new Set<() => void>();

export function registerLiveStream(stop: () => void): () => void {
  stops.add(stop);
  return () => stops.delete(stop);
}

export function stopLiveStreams(): void {
  for (const stop of [...stops]) stop();
  stops.clear();
}
