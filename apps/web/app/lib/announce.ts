/**
 * Polite screen-reader announcements for things that change without a page load (added to the
 * wishlist, results updated). One live region (components/feedback/Announcer.tsx) is rendered
 * with the page, so it exists before the first message (live regions added later are missed).
 */
type Listener = (message: string) => void;
const listeners = new Set<Listener>();

export function announce(message: string): void {
  for (const listener of listeners) listener(message);
}

export function onAnnounce(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
