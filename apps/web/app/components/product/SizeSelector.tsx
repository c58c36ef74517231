import { formatMoney } from '@verdant/domain';
import { useEffect, useRef } from 'react';
import { cachedElement } from '../../lib/cached-element.tsx';
import { pageFragments } from '../../lib/fragment-cache.ts';
import type { SizeChoice } from '../../lib/product-page.ts';

interface Props {
  choices: SizeChoice[];
  selectedSize: number | null;
  onChoose?: (size: number) => void;
  money: { currencyCode: string; locale: string };
}

/**
 * The size radio group (spec §4, §9): each weight with what the cart charges for it (its weight
 * deal included, the regular price struck through when lower) and the price per gram; sizes that cannot be offered are disabled and say "Sold out". The radios are
 * named `size`: inside the page's GET form they work without JavaScript too.
 */
export function SizeSelector({ choices, selectedSize, onChoose, money }: Props) {
  const group = useRef<HTMLFieldSetElement>(null);
  // A size tapped before React took over the server's page (a slow phone) is checked in the DOM but
  // not in the state: hydration keeps the DOM's `checked`, and the next render would put the
  // state's size back. Once hydrated, a checked radio other than the state's is adopted as a choice.
  useEffect(() => {
    const picked = group.current?.querySelector<HTMLInputElement>('input[name="size"]:checked');
    const size = picked ? Number(picked.value) : null;
    if (size != null && size !== selectedSize) onChoose?.(size);
    // Once, at hydration: later changes arrive through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // On the server the group's markup comes from the fragment cache once rendered (the handlers are
  // not in the markup): the key is every field of a choice the markup reads, the selection, the money.
  const key = `sizes\u0000${JSON.stringify([
    selectedSize,
    money.currencyCode,
    money.locale,
    choices.map((c) => [c.size, c.label, c.available, c.charge, c.price, c.discountPrice != null, c.perGram]),
  ])}`;
  return cachedElement(pageFragments, key, 'fieldset', { className: 'min-w-0', ref: group }, () => (
    <SizeOptions choices={choices} selectedSize={selectedSize} onChoose={onChoose} money={money} />
  ));
}

function SizeOptions({ choices, selectedSize, onChoose, money }: Props) {
  return (
    <>
      <legend className="text-sm font-semibold tracking-wide text-stone-900 uppercase">Size</legend>
      <div className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
        {choices.map((c) => {
          const id = `size-${c.size}`;
          const checked = c.size === selectedSize;
          return (
            <div key={c.size} className="relative">
              <input
                id={id}
                type="radio"
                name="size"
                value={c.size}
                checked={checked}
                disabled={!c.available}
                onChange={() => onChoose?.(c.size)}
                className="peer absolute top-3 right-3 h-4 w-4 accent-brand"
              />
              <label
                htmlFor={id}
                className="flex h-full min-h-20 cursor-pointer flex-col rounded-2xl border border-stone-300 bg-white p-3 pr-8 hover:border-stone-500 peer-checked:border-brand peer-checked:ring-2 peer-checked:ring-brand peer-disabled:cursor-not-allowed peer-disabled:bg-stone-100 peer-disabled:text-stone-600 peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-ink"
              >
                <span className="font-semibold">{c.label}</span>
                {c.available ? (
                  <>
                    <span className="text-sm">
                      {c.charge < c.price ? (
                        <>
                          <span className="sr-only">{c.discountPrice != null ? 'Weight deal price ' : 'Sale price '}</span>
                          <span className="font-semibold text-red-700">{formatMoney(c.charge, money)}</span>{' '}
                          <span className="sr-only">Regular price </span>
                          <s className="text-stone-600">{formatMoney(c.price, money)}</s>
                        </>
                      ) : (
                        formatMoney(c.charge, money)
                      )}
                    </span>
                    {c.discountPrice != null ? <span className="text-xs font-medium text-brand-ink">Weight deal</span> : null}
                    {c.perGram != null ? <span className="text-xs text-stone-600">{formatMoney(c.perGram, money)}/g</span> : null}
                  </>
                ) : (
                  <span className="text-sm font-medium">Sold out</span>
                )}
              </label>
            </div>
          );
        })}
      </div>
    </>
  );
}
