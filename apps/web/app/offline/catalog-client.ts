/**
 * The page's door to the offline catalogue worker (issue 15): ONE worker per page, started on first
 * need (loaded by dynamic import from ../lib/offline-catalog.ts, so it is never in a page's initial
 * JavaScript). Where there is no Worker (the unit tests in Node, a very old browser) the same
 * engine and protocol run in the page over a MessageChannel.
 */
import { connectCatalog, serveCatalog, type CatalogConnection, type MessageEnd } from './catalog-protocol.ts';

let connection: CatalogConnection | null = null;

function portEnd(port: MessagePort): MessageEnd {
  port.start();
  return { postMessage: (m) => port.postMessage(m), addEventListener: (type, listener) => port.addEventListener(type, listener) };
}

export function catalogConnection(): CatalogConnection {
  if (connection) return connection;
  if (typeof Worker !== 'undefined') {
    const worker = new Worker(new URL('./catalog-worker.ts', import.meta.url), { type: 'module', name: 'verdant-offline-catalog' });
    connection = connectCatalog(worker);
  } else {
    // The engine only when there is no worker (its own chunk: with a worker, the page never loads it).
    // A MessagePort queues what is posted to it until started, so nothing asked meanwhile is lost.
    const channel = new MessageChannel();
    void import('./catalog-engine.ts').then(({ createCatalogEngine }) =>
      serveCatalog(portEnd(channel.port2), (storeCode) => createCatalogEngine({ storeCode })),
    );
    connection = connectCatalog(portEnd(channel.port1));
  }
  return connection;
}
