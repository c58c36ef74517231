/**
 * Purchase-limit buckets (issue 14). For the engineer wiring this into the cart, checkout and console:
 *
 * MODEL (model.ts). A store's limits are a `LimitModel`: `{ buckets, share_with_licence_holder }`.
 * A bucket has an `id`, a shopper-facing `label` ("Flower", "Concentrate"), a `unit`
 * (`flower_g` | `concentrate_g` | `thc_mg` | `flower_equivalent_g`), `counts` (which product measures
 * count toward it and at what rate: `{ concentrate_g: { amount: 8, counts_as: 28.349 } }` means 8 g
 * of concentrate count as 28.349 g here), `caps` per customer type (recreational, medical) and
 * residency (resident, non_resident), a `window` and `count_orders`.
 *   - A cap is explicit: a number in the unit, `"no_cap"` (not limited by this bucket) or `"not_sold"`
 *     (anything counting here is refused). `caps.recreational: 28.5` is shorthand for both residencies.
 *   - Windows: `transaction` (the cart alone), `day` (calendar day in the store's time zone),
 *     `rolling_days: N` (today and the N−1 days before, calendar days), `month` (calendar month).
 *   - `count_orders`: `all` earlier orders of the customer, or `same_customer_type` only.
 * Validate input with `limitModelSchema` (zod, for STORES_FILE and the console's form: the same
 * schema object in route docs) and turn it into the normalised `LimitModel` with `parseLimitModel`
 * / `safeParseLimitModel` / `normaliseLimitModel`. Presets (presets.ts): `limitPreset('CA' | 'CO' |
 * 'MI' | 'IL' | 'MA' | 'NV')`, raw inputs in `LIMIT_PRESETS` (copy one into a store and edit it);
 * `transactionLimitModel()` turns today's per_transaction usable_max into a model, and
 * `limitFactsFromCartItem()` today's cart items into facts: together they give today's verdicts
 * (tested against checkTransactionLimit), so the switch can be made store by store.
 *
 * PRODUCTS (amounts.ts). `LimitProductFacts` come from the menu import's fields: unit, weight_g,
 * flower_equivalent_g, concentrate_g, thc_mg per package (`thcMgPerPackage(thc, thc_unit, pieces)`),
 * cannabis=false for canna_type 4/6 (`isCannabisType`). `productMeasures` splits a package into
 * non-overlapping flower grams / concentrate grams / infused THC mg; `bucketAmountPerPackage` applies
 * a bucket. One product may count toward several buckets (an infused pre-roll: flower and concentrate).
 * `packageContributions(model.buckets, facts)` lists what one package counts per bucket (product page).
 *
 * EVALUATION (evaluate.ts). `evaluateLimits(model, { customerType, residency, now, timezone,
 * cartLines, earlierOrders, guest })` → `{ ok, meters, violations, remove, message, guestPerOrderOnly,
 * guestNotice }`.
 *   - `meters`: per bucket, used (earlier orders in its window), inCart, cap, remaining, and a text
 *     ("12.5 g of 28.5 g per day") for the cart's meter. Show the buckets whose cap is a number.
 *   - `violations`: per bucket over its cap — by how much, what to remove (fewest lines, then fewest
 *     packages; see suggestRemoval) and a message naming the bucket. A per-order bucket keeps the
 *     spec's §8 sentence ("Your cart contains 0.5 g more cannabis than can be in a single order…").
 *   - `remove`: one suggestion fixing every violation at once; `applyRemoval(lines, remove)`.
 *   - Earlier orders: pass the customer's orders since the earliest `windowStart(bucket.window, now,
 *     timezone)` over the model's buckets (across the licence holder's stores when
 *     `shareWithLicenceHolder`), cancelled ones flagged `cancelled: true` (ignored). A guest is counted
 *     on this order alone: pass `guest: true`, and show `guestNotice` at checkout.
 *   - Residency: ask it when `modelNeedsResidency(model)`; until known (`residency: null`) the stricter
 *     cap applies.
 *   - All amounts are integers of thousandths of the unit (mg of grams, µg of THC mg): exact, 28.5 g at
 *     a 28.5 g cap passes and 28.501 g does not. `formatLimitAmount` prints them.
 * The server runs the same function at cart update and again inside the order-save transaction.
 */
export * from './model.ts';
export * from './amounts.ts';
export * from './window.ts';
export * from './evaluate.ts';
export * from './presets.ts';
