/**
 * Product images of a menu import: files beside the menu file, named in the `images` column.
 *
 * Before anything is written every named file is checked (it exists beside the file, is at most
 * MAX_IMAGE_BYTES, and sharp reads it as a JPEG, PNG or WebP); a file that fails is a problem of
 * the first row naming it, so the import changes nothing. On apply each file is copied into the
 * media directory under a name made from its content (`/catalog/import/<sha256>.<ext>`): the same
 * picture imported twice is stored once, and a copy left by an import that then failed is never
 * referenced. The storefront's image pipeline (images/resize.ts) renders the sizes of spec §9 from
 * there on first request, like every other product image.
 *
 * Files are read one at a time per worker and never kept in memory, so a menu with thousands of
 * pictures needs no more memory than one picture.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Problem } from './parse.ts';

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Files checked at once: reading and hashing is I/O bound; sharp only reads the header. */
const WORKERS = 4;

export interface ImageSource {
  /** Where the files named in the `images` column are (the menu file's folder). */
  sourceDir: string;
  /** The media directory the storefront serves (`DATA_DIR/media`). */
  mediaDir: string;
}

export interface PreparedImages {
  /** File name in the menu → media path (`/catalog/import/<hash>.<ext>`). */
  mediaOf: Map<string, string>;
  problems: Problem[];
  /** Copy the checked files into the media directory (idempotent). */
  store(): Promise<void>;
}

const EXT: Record<string, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

/**
 * Check the pictures to take (file name → the first file row naming it); nothing is written. Only
 * rows that are new or whose `images` cell changed take pictures, so an exported menu re-imports
 * as "no change" without its pictures beside it.
 */
export async function prepareImages(firstRow: ReadonlyMap<string, number>, src: ImageSource): Promise<PreparedImages> {
  const names = [...firstRow.keys()];
  const mediaOf = new Map<string, string>();
  const problems: Problem[] = [];
  const problem = (name: string, reason: string) => problems.push({ row: firstRow.get(name)!, column: 'images', value: name, reason });

  let next = 0;
  const work = async () => {
    while (next < names.length) {
      const name = names[next++];
      const file = path.join(src.sourceDir, name);
      const size = await stat(file).then(
        (s) => (s.isFile() ? s.size : -1),
        () => -1,
      );
      if (size < 0) {
        problem(name, 'no such image file beside the menu file');
        continue;
      }
      if (size > MAX_IMAGE_BYTES) {
        problem(name, `the image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
        continue;
      }
      const format = await sharp(file)
        .metadata()
        .then(
          (m) => m.format,
          () => undefined,
        );
      const ext = format ? EXT[format] : undefined;
      if (!ext) {
        problem(name, 'not a readable JPEG, PNG or WebP image');
        continue;
      }
      mediaOf.set(name, `/catalog/import/${await sha256(file)}.${ext}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(WORKERS, names.length) }, work));
  problems.sort((a, b) => a.row - b.row);

  return {
    mediaOf,
    problems,
    async store() {
      const dir = path.join(src.mediaDir, 'catalog/import');
      await mkdir(dir, { recursive: true });
      for (const [name, media] of mediaOf) {
        const target = path.join(src.mediaDir, media);
        const exists = await stat(target).then(
          () => true,
          () => false,
        );
        if (exists) continue;
        // Copy beside, then rename: a reader never sees half a file.
        const tmp = `${target}.${process.pid}.tmp`;
        await copyFile(path.join(src.sourceDir, name), tmp);
        await rename(tmp, target);
      }
    },
  };
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex').slice(0, 32);
}
