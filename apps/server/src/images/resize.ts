/**
 * Product images at the sizes of spec §9 (thumbnail 310x300, gallery 600x744, cart 150x150),
 * resized on demand with sharp from `DATA_DIR/media` and kept on disk under
 * `DATA_DIR/cache/img/{w}x{h}/{path}.{webp|png}`. Each size is rendered once per source file
 * (and again when the source is newer than its copy); concurrent requests for one image share a
 * single render.
 */
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { REPO_ROOT } from '../config.ts';
import { ApiError } from '../http/envelope.ts';

/** What a missing image or `no_selection` answers: the storefront's own placeholder. */
export const PLACEHOLDER_FILE = path.join(REPO_ROOT, 'apps/web/public/placeholder-product.svg');

export const IMAGE_SIZES = [
  { width: 310, height: 300 },
  { width: 600, height: 744 },
  { width: 150, height: 150 },
] as const;

export type ImageFormat = 'webp' | 'png';

export function isAllowedSize(width: number, height: number): boolean {
  return IMAGE_SIZES.some((s) => s.width === width && s.height === height);
}

/** Marks an image path that has no image (spec §5): the placeholder is served instead. */
export const NO_SELECTION = 'no_selection';

/** A path that would leave the media directory: answered 400 by the error handler. */
export class ImagePathError extends ApiError {
  constructor() {
    super(400, 'Invalid image path');
  }
}

/**
 * The media-relative path of a request (`catalog/product/X.svg`), or null for "no image".
 * Refuses anything that could leave the media directory: `..` segments (also URL-encoded, which
 * Fastify has already decoded once), backslashes, NUL bytes.
 */
export function mediaPath(raw: string): string | null {
  const trimmed = raw.replace(/^\/+/, '');
  if (trimmed === '' || trimmed === NO_SELECTION) return null;
  if (/[\\\0]/.test(trimmed) || trimmed.split('/').some((seg) => seg === '..' || seg === '.')) {
    throw new ImagePathError();
  }
  const normal = path.posix.normalize(trimmed);
  if (normal.startsWith('..') || path.posix.isAbsolute(normal)) throw new ImagePathError();
  return normal;
}

export interface ResizedImage {
  file: string;
  format: ImageFormat;
  placeholder: boolean;
}

export interface ImageResizerOptions {
  mediaDir: string;
  cacheDir: string;
  /** Rendered when the path names no image or a missing file. */
  placeholderFile: string;
}

const PLACEHOLDER_KEY = '__placeholder__';

export class ImageResizer {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly opts: ImageResizerOptions) {}

  /** The cached file for an image at an allowed size, rendering it first when needed. */
  async get(relPath: string | null, width: number, height: number, format: ImageFormat): Promise<ResizedImage> {
    let source = this.opts.placeholderFile;
    let key = PLACEHOLDER_KEY;
    if (relPath) {
      const candidate = path.join(this.opts.mediaDir, relPath);
      // Belt and braces: the resolved file must still lie inside the media directory.
      if (!candidate.startsWith(path.resolve(this.opts.mediaDir) + path.sep)) throw new ImagePathError();
      const exists = await stat(candidate).then(
        (s) => s.isFile(),
        () => false,
      );
      if (exists) {
        source = candidate;
        key = relPath;
      }
    }
    const target = path.join(this.opts.cacheDir, `${width}x${height}`, `${key}.${format}`);
    let pending = this.inFlight.get(target);
    if (!pending) {
      pending = this.render(source, target, width, height, format).finally(() => this.inFlight.delete(target));
      this.inFlight.set(target, pending);
    }
    return { file: await pending, format, placeholder: key === PLACEHOLDER_KEY };
  }

  private async render(
    source: string,
    target: string,
    width: number,
    height: number,
    format: ImageFormat,
  ): Promise<string> {
    const [src, cached] = await Promise.all([stat(source), stat(target).catch(() => null)]);
    if (cached && cached.mtimeMs >= src.mtimeMs) return target;
    const input = await readFile(source);
    const image = sharp(input, { density: await densityFor(input, width, height) })
      // The whole product stays visible: letterboxed on a transparent background, never cropped.
      .resize(width, height, { fit: 'contain', background: { r: 255, g: 255, b: 255, alpha: 0 } });
    const out = await (format === 'webp' ? image.webp({ quality: 82 }) : image.png({ compressionLevel: 8 })).toBuffer();
    await mkdir(path.dirname(target), { recursive: true });
    // Write then rename, so a concurrent reader never sees half a file.
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(tmp, out);
    await rename(tmp, target);
    return target;
  }
}

/** Vector sources are rasterised at the density the target needs, so they stay sharp. */
async function densityFor(input: Buffer, width: number, height: number): Promise<number> {
  const meta = await sharp(input).metadata();
  if (meta.format !== 'svg' || !meta.width || !meta.height) return 72;
  const scale = Math.max(width / meta.width, height / meta.height, 1);
  return Math.min(72 * scale, 2400);
}
