import { useId, useRef, useState } from 'react';
import { CART_COPY, CATALOG_MESSAGES, chosenUnitPrice, formatMoney, type CatalogProduct, type ProductCard } from '@verdant/domain';
import { callApi } from '../../api/envelope.ts';
import { NOTICE_ACTIONS } from '../../lib/cart-messages.ts';
import { pageCustomerGroup, sizeChoices, type SizeChoice } from '../../lib/product-page.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { notify } from '../../state/notifications.ts';
import type { CartOutcome } from '../../state/cart-store.ts';
import { useAuth } from '../../state/use-auth.ts';
import { useCart } from '../../state/use-cart.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { newCartItem, noticeOutcome } from './AddToCart.tsx';

type Money = { currencyCode: string; locale: string };

/**
 * Issue 30: which quick add a card offers — "Add to cart" for a product without choices, a size
 * chooser for one with sizes; kits (grouped, bundle) are configured on their page only.
 */
export function quickAddKind(product: Pick<ProductCard, 'type_id'>): 'add' | 'sizes' | null {
  if (product.type_id === 'configurable') return 'sizes';
  if (product.type_id === 'grouped' || product.type_id === 'bundle') return null;
  return 'add';
}

/**
 * The quick add's place on a card as the server writes it (and the fragment cache keeps it): an
 * empty box of the button's height, so the button the browser puts there moves nothing. There is
 * no add-to-cart route without JavaScript: until the page runs, the card's name link is the way.
 */
export function QuickAddSlot({ product }: { product: Pick<ProductCard, 'type_id'> }) {
  return quickAddKind(product) ? <div className="card-add" /> : null;
}

/** The card's quick add: the server's empty slot until the page runs, then the live control. */
export function QuickAdd({ product, money }: { product: ProductCard; money?: Money }) {
  const hydrated = useHydrated();
  const kind = quickAddKind(product);
  if (!kind) return null;
  return <div className="card-add">{hydrated ? <QuickAddControl product={product} kind={kind} money={money} /> : null}</div>;
}

/**
 * The product as the cart takes it: the catalogue document, read when the shopper asks (a card
 * carries only what it shows). Kept briefly per sku, so a second tap does not wait again.
 */
const documents = new Map<string, { at: number; doc: Promise<CatalogProduct> }>();
const DOCUMENT_TTL_MS = 30_000;

function productDocument(sku: string): Promise<CatalogProduct> {
  const now = Date.now();
  const cached = documents.get(sku);
  if (cached && now - cached.at < DOCUMENT_TTL_MS) return cached.doc;
  const doc = callApi<CatalogProduct>('/api/catalog/product', { query: { sku } });
  documents.set(sku, { at: now, doc });
  doc.catch(() => documents.delete(sku));
  return doc;
}

const BUTTON_CLASS =
  'relative inline-flex min-h-11 w-full items-center justify-center rounded-full bg-brand px-3 text-sm font-semibold text-on-brand hover:opacity-90 aria-disabled:cursor-progress aria-disabled:opacity-60';

function QuickAddControl({ product, kind, money }: { product: ProductCard; kind: 'add' | 'sizes'; money?: Money }) {
  const loaded = useCart((s) => s.loaded);
  const isAdding = useCart((s) => s.isAdding);
  const addItem = useCart((s) => s.addItem);
  const group = pageCustomerGroup(true, useAuth((s) => s.user));
  const [reading, setReading] = useState(false);
  const [chooser, setChooser] = useState<{ doc: CatalogProduct; choices: SizeChoice[]; now: Date } | null>(null);
  const [open, setOpen] = useState(false);
  // The outcome of a size's add, told once the dialog has closed (see addSize).
  const pending = useRef<CartOutcome | null>(null);
  const titleId = useId();
  const busy = reading || isAdding || !loaded;

  const refuse = (message: string) => notify({ type: 'error', message, action1: { label: NOTICE_ACTIONS.ok } });

  const start = async () => {
    if (busy) return;
    setReading(true);
    let doc: CatalogProduct;
    try {
      doc = await productDocument(product.sku);
    } catch (e) {
      refuse(e instanceof Error ? e.message : String(e));
      return;
    } finally {
      setReading(false);
    }
    const now = new Date();
    if (doc.type_id === 'configurable') {
      setChooser({ doc, choices: sizeChoices(doc, now, group), now });
      setOpen(true);
      return;
    }
    // The menu changed since the card was drawn: a kit is configured on its page.
    if (!quickAddKind(doc)) return refuse(CART_COPY.configureOptions);
    // The product page's add for a product without choices (its button is off when sold out): one unit at what the cart charges.
    if (!doc.stock.is_in_stock) return refuse(CATALOG_MESSAGES.outOfStock);
    noticeOutcome(await addItem(newCartItem(doc, null, null, 1, now, chosenUnitPrice(doc, null, now, group).final_price)));
  };

  const addSize = async (choice: SizeChoice) => {
    if (!chooser || !choice.child || !choice.available || isAdding) return;
    const item = newCartItem(chooser.doc, choice.child, choice, 1, chooser.now, choice.charge);
    pending.current = await addItem(item);
    // The dialog closes first (focus back on the card's button), then the notice (onClosed): the
    // page behind a modal dialog is inert, and a notice put there would not be heard.
    setOpen(false);
  };

  const onClosed = () => {
    setOpen(false);
    const outcome = pending.current;
    pending.current = null;
    if (outcome) noticeOutcome(outcome);
  };

  return (
    <>
      <button type="button" className={BUTTON_CLASS} aria-disabled={busy || undefined} aria-busy={reading || undefined} onClick={() => void start()}>
        {/* One text box: in the flex button, loose text pieces would lose the spaces around the hidden name. */}
        {kind === 'add' ? (
          <span>
            Add<span className="sr-only"> {product.name}</span> to cart
          </span>
        ) : (
          <span>
            Choose size<span className="sr-only"> of {product.name}</span>
          </span>
        )}
      </button>
      {chooser ? (
        <Dialog
          open={open}
          onClose={onClosed}
          labelledBy={titleId}
          className="mx-0 mt-auto mb-0 max-h-[85dvh] w-full max-w-none overflow-y-auto rounded-t-2xl bg-white p-0 text-stone-900 shadow-2xl sm:m-auto sm:max-w-sm sm:rounded-2xl"
        >
          <div className="flex items-start justify-between gap-3 border-b border-stone-200 px-4 py-3">
            <h2 id={titleId} className="text-base font-semibold">
              Choose a size: {chooser.doc.name}
            </h2>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="inline-flex min-h-11 shrink-0 items-center rounded-full border border-stone-300 px-4 text-sm font-medium hover:bg-stone-100"
            >
              Close
            </button>
          </div>
          <ul className="grid gap-2 p-4" aria-label="Sizes">
            {chooser.choices.map((c, i) => (
              <li key={c.size}>
                <SizeButton
                  choice={c}
                  money={money}
                  busy={isAdding}
                  autoFocus={c.available && chooser.choices.findIndex((x) => x.available) === i}
                  onChoose={() => void addSize(c)}
                />
              </li>
            ))}
          </ul>
        </Dialog>
      ) : null}
    </>
  );
}

/** One size: pressing it adds one unit of it. Sold-out sizes are listed, disabled, and say so. */
function SizeButton({ choice: c, money, busy, autoFocus, onChoose }: { choice: SizeChoice; money?: Money; busy: boolean; autoFocus: boolean; onChoose(): void }) {
  return (
    <button
      type="button"
      disabled={!c.available}
      aria-disabled={busy || undefined}
      data-autofocus={autoFocus ? '' : undefined}
      onClick={busy ? undefined : onChoose}
      className="flex min-h-12 w-full flex-wrap items-center justify-between gap-x-3 rounded-xl border border-stone-300 px-3 py-2 text-left hover:border-stone-500 disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-600 aria-disabled:cursor-progress"
    >
      <span className="font-semibold">
        <span className="sr-only">Add </span>
        {c.label}
      </span>
      {c.available ? (
        <span className="text-sm">
          <span className="sr-only"> to cart, </span>
          {c.charge < c.price ? (
            <>
              <span className="sr-only">{c.discountPrice != null ? 'Weight deal price ' : 'Sale price '}</span>
              <span className="font-semibold text-red-700">{formatMoney(c.charge, money)}</span>{' '}
              <span className="sr-only">Regular price </span>
              <s className="text-stone-600">{formatMoney(c.price, money)}</s>
            </>
          ) : (
            <span className="font-semibold">{formatMoney(c.charge, money)}</span>
          )}
          {c.perGram != null ? (
            <span className="ml-2 text-xs text-stone-600">
              <span aria-hidden="true">{formatMoney(c.perGram, money)}/g</span>
              <span className="sr-only">, {formatMoney(c.perGram, money)} per gram</span>
            </span>
          ) : null}
        </span>
      ) : (
        <span className="text-sm font-medium">Sold out</span>
      )}
    </button>
  );
}
