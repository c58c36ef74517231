import type { TotalsView } from '../../lib/cart-view.ts';

/**
 * What the deals say of the cart (issue 28), from the server's totals: nudges ("Add 1 more eighth to
 * get 3 for $90.00") and why a deal on its items was missed ("Not today: this deal runs on
 * Wednesdays."), one paragraph each (the cart's lines stay its only list items). A polite live region: a nudge that appears or changes after a cart change is read
 * out after the change's own announcement.
 */
export function DealNotes({ notes }: { notes: TotalsView['dealNotes'] }) {
  const nudges = notes?.nudges ?? [];
  const missed = notes?.missed ?? [];
  return (
    <div aria-live="polite" data-testid="deal-notes">
      {nudges.length > 0 || missed.length > 0 ? (
        <section aria-label="Deals" className="mt-3 rounded-2xl bg-emerald-50 p-3 text-sm ring-1 ring-emerald-200">
          {nudges.length > 0 ? (
            <div className="space-y-1 font-medium text-emerald-950" data-testid="deal-nudges">
              {nudges.map((n) => (
                <p key={n} className="break-words">
                  {n}
                </p>
              ))}
            </div>
          ) : null}
          {missed.length > 0 ? (
            <div className="mt-1 space-y-1 text-stone-800" data-testid="deal-missed">
              {missed.map((m) => (
                <p key={m} className="break-words">
                  {m}
                </p>
              ))}
            </div>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
