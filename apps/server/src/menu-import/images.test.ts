import { mkdtempSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seed } from '../../test-support/catalog/test-app.ts';
import { describeEachDatabase } from '../../test-support/databases.ts';
import { ImageResizer, PLACEHOLDER_FILE } from '../images/resize.ts';
import { importMenu } from './index.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const HEADER = 'external_id,sku,name,category,unit,weight_g,price,stock,images';

describeEachDatabase('menu import: pictures beside the file', (getDb) => {
  let dir: string;
  beforeAll(async () => {
    await seed(getDb());
    dir = mkdtempSync(path.join(tmpdir(), 'verdant-import-img-'));
    for (const [name, colour] of [
      ['front.png', { r: 20, g: 120, b: 40 }],
      ['back.png', { r: 200, g: 30, b: 30 }],
    ] as const)
      await sharp({ create: { width: 800, height: 600, channels: 3, background: colour } })
        .png()
        .toFile(path.join(dir, name));
    writeFileSync(path.join(dir, 'fake.jpg'), 'this is not a picture');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('checks every picture before writing, copies them by content into the media the pipeline resizes, and re-imports as no change', async () => {
    const { db } = getDb();
    const media = path.join(dir, 'media');
    const run = (text: string) =>
      importMenu(db, {
        storeId: 2,
        source: [Buffer.from(text)],
        format: 'csv',
        clock: () => NOW,
        images: { sourceDir: dir, mediaDir: media },
      });

    const bad = await run(
      [
        HEADER,
        'IMG-1,IMG-1,Pictured Kush,Flower > Hybrid,g,3.5,30.00,5,front.png;fake.jpg',
        'IMG-2,IMG-2,Lost Haze,Flower > Hybrid,g,3.5,30.00,5,missing.png',
      ].join('\n'),
    );
    expect(bad.outcome).toBe('problems');
    expect(bad.problems).toEqual([
      { row: 2, sku: 'IMG-1', name: 'Pictured Kush', column: 'images', value: 'fake.jpg', reason: 'not a readable JPEG, PNG or WebP image' },
      { row: 3, sku: 'IMG-2', name: 'Lost Haze', column: 'images', value: 'missing.png', reason: 'no such image file beside the menu file' },
    ]);
    expect(existsSync(media)).toBe(false);
    expect(await db.selectFrom('products').select('id').where('external_id', 'in', ['IMG-1', 'IMG-2']).execute()).toEqual([]);

    const good = [HEADER, 'IMG-1,IMG-1,Pictured Kush,Flower > Hybrid,g,3.5,30.00,5,front.png;back.png'].join('\n');
    expect((await run(good)).outcome).toBe('applied');
    const product = await db
      .selectFrom('products')
      .select(['id', 'image'])
      .where('store_id', '=', 2)
      .where('external_id', '=', 'IMG-1')
      .executeTakeFirstOrThrow();
    const gallery = await db
      .selectFrom('product_media')
      .select(['image', 'position'])
      .where('product_id', '=', product.id)
      .orderBy('position')
      .execute();
    expect(gallery).toHaveLength(2);
    expect(product.image).toBe(gallery[0].image);
    expect(product.image).toMatch(/^\/catalog\/import\/[0-9a-f]{32}\.png$/);
    expect(readFileSync(path.join(media, product.image!))).toEqual(readFileSync(path.join(dir, 'front.png')));

    // The storefront's pipeline renders the thumbnail from the copy (not the placeholder).
    const resizer = new ImageResizer({ mediaDir: media, cacheDir: path.join(dir, 'cache'), placeholderFile: PLACEHOLDER_FILE });
    const thumb = await resizer.get(product.image!.slice(1), 310, 300, 'webp');
    expect(thumb.placeholder).toBe(false);
    expect(await sharp(thumb.file).metadata()).toMatchObject({ width: 310, height: 300, format: 'webp' });

    expect((await run(good)).outcome).toBe('unchanged');
    // Order changed: the main picture follows the file.
    expect((await run(good.replace('front.png;back.png', 'back.png;front.png'))).outcome).toBe('applied');
    const again = await db.selectFrom('products').select('image').where('id', '=', product.id).executeTakeFirstOrThrow();
    expect(again.image).toBe(gallery[1].image);
  });
});
