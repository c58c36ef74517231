/**
 * Registers the service worker (sw/sw.ts) once the page has loaded, so it never competes with the
 * first paint. One worker per origin at scope `/` (the server allows it with Service-Worker-Allowed).
 * Not in development: Vite's dev server has no built worker.
 */
export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/', type: 'classic' }).catch((error: unknown) => {
      // The store works without it (only offline use is lost): say so in the console, nothing more.
      console.warn('Service worker registration failed', error);
    });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
