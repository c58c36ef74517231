import { useState } from 'react';
import { GALLERY_HEIGHT, GALLERY_WIDTH, productImageSrc, SMALL_IMAGE_SIZE } from '../../lib/product-view.ts';

interface Props {
  images: { image: string; alt: string }[];
  name: string;
}

/**
 * The product gallery: the main image at the gallery size of spec §9 (600x744), thumbnails as
 * buttons below (keyboard: Tab to a thumbnail, Enter or Space to show it; the pressed state says
 * which one is shown).
 */
export function ProductGallery({ images, name }: Props) {
  const [index, setIndex] = useState(0);
  const shown = images[index] ?? null;
  return (
    <div>
      <div className="overflow-hidden rounded-3xl bg-stone-100">
        <img
          src={productImageSrc(shown?.image, GALLERY_WIDTH, GALLERY_HEIGHT)}
          alt={shown ? shown.alt : `${name} (no photo yet)`}
          width={GALLERY_WIDTH}
          height={GALLERY_HEIGHT}
          fetchPriority="high"
          className="aspect-[600/744] h-auto w-full object-cover"
        />
      </div>
      {images.length > 1 ? (
        <ul aria-label="Product images" className="mt-3 flex gap-2 overflow-x-auto p-1">
          {images.map((img, i) => (
            <li key={img.image}>
              <button
                type="button"
                aria-pressed={i === index}
                onClick={() => setIndex(i)}
                className="block overflow-hidden rounded-xl ring-2 ring-transparent aria-pressed:ring-brand"
              >
                <img
                  src={productImageSrc(img.image, SMALL_IMAGE_SIZE, SMALL_IMAGE_SIZE)}
                  alt={`Show image ${i + 1} of ${images.length}`}
                  width={72}
                  height={72}
                  loading="lazy"
                  className="h-18 w-18 object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
