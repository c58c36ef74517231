/**
 * Installability per store (issue 6, spec §1 "works offline"): every store installs as its own
 * app, so the web app manifest and its icons are made per request from the store the host (or
 * path prefix) resolves to.
 *   GET /manifest.webmanifest, /{storeCode}/manifest.webmanifest
 *   GET /pwa-icons/{192|512|maskable-512}.png  (also behind the store-code prefix)
 * Icons are the store's initials on its theme colour, drawn as SVG and rasterised once per store
 * and size by sharp, then kept in memory (a handful of small PNGs per store).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import sharp from 'sharp';
import type { Store } from '@verdant/domain';
import { MESSAGES } from '@verdant/domain';
import { sendError } from '../http/envelope.ts';

export const ICON_SIZES = ['192', '512', 'maskable-512'] as const;
type IconName = (typeof ICON_SIZES)[number];

function basePath(request: FastifyRequest): string {
  return request.storePathPrefix || (request.store.appendStoreCode ? `/${request.store.storeCode}` : '');
}

/** Up to two letters: "Green Leaf Downtown" → "GL". */
export function initials(name: string): string {
  const words = name.replace(/[^\p{L}\p{N} ]/gu, ' ').split(/\s+/).filter(Boolean);
  return (words.length > 1 ? words[0][0] + words[1][0] : (words[0] ?? '?').slice(0, 2)).toUpperCase();
}

export function webManifest(store: Pick<Store, 'name' | 'storeCode' | 'themeColor'>, base: string) {
  const root = `${base}/`;
  const shortName = store.name.length <= 12 ? store.name : initials(store.name);
  return {
    id: root,
    name: store.name,
    short_name: shortName,
    description: `${store.name}: browse the menu and order for pickup or delivery, also offline.`,
    start_url: root,
    scope: root,
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#ffffff',
    theme_color: store.themeColor,
    categories: ['shopping'],
    icons: [
      { src: `${base}/pwa-icons/192.png`, sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: `${base}/pwa-icons/512.png`, sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: `${base}/pwa-icons/maskable-512.png`, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
}

function iconSvg(store: Pick<Store, 'name' | 'themeColor'>, name: IconName): string {
  const size = name === '192' ? 192 : 512;
  // A maskable icon keeps its content inside the central 80 % safe zone and fills the square.
  const maskable = name.startsWith('maskable');
  const radius = maskable ? 0 : size * 0.18;
  const fontSize = size * (maskable ? 0.32 : 0.42);
  const text = initials(store.name).replace(/[<&>]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<rect width="${size}" height="${size}" rx="${radius}" fill="${store.themeColor}"/>
<text x="50%" y="50%" dy=".35em" text-anchor="middle" font-family="DejaVu Sans, Arial, sans-serif" font-weight="700" font-size="${fontSize}" fill="#ffffff">${text}</text>
</svg>`;
}

export function registerPwaRoutes(app: FastifyInstance): void {
  const icons = new Map<string, Promise<Buffer>>();
  app.addHook('onClose', async () => icons.clear());

  const manifest = (request: FastifyRequest, reply: FastifyReply) =>
    reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(JSON.stringify(webManifest(request.store, basePath(request))));

  const icon = async (request: FastifyRequest<{ Params: { name: string } }>, reply: FastifyReply) => {
    const name = request.params.name.replace(/\.png$/, '') as IconName;
    if (!ICON_SIZES.includes(name)) return sendError(reply, 404, MESSAGES.pageNotFound);
    const store = request.store;
    const key = `${store.storeId}|${store.name}|${store.themeColor}|${name}`;
    let png = icons.get(key);
    if (!png) {
      png = sharp(Buffer.from(iconSvg(store, name))).png().toBuffer();
      icons.set(key, png);
      png.catch(() => icons.delete(key));
    }
    return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(await png);
  };

  const prefixed = (request: FastifyRequest, reply: FastifyReply) => (request.storePathPrefix ? null : sendError(reply, 404, MESSAGES.pageNotFound));

  app.get('/manifest.webmanifest', manifest);
  app.get('/:storeCode/manifest.webmanifest', (request, reply) => prefixed(request, reply) ?? manifest(request, reply));
  app.get<{ Params: { name: string } }>('/pwa-icons/:name', icon);
  app.get<{ Params: { storeCode: string; name: string } }>('/:storeCode/pwa-icons/:name', (request, reply) => prefixed(request, reply) ?? icon(request, reply));
}
