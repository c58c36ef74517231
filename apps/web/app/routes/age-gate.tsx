import { data, Form, redirect, useNavigation } from 'react-router';
import type { Route } from './+types/age-gate';
import { AgeGateCard } from '../components/age-gate/AgeGateCard.tsx';
import { AgeGateFields } from '../components/age-gate/AgeGateFields.tsx';
import { LicenseChoice } from '../components/age-gate/LicenseChoice.tsx';
import { AGE_GATE_FIELD, AGE_GATE_PATH, evaluateAgeGate, LICENSE_DIALOG_TITLE, withOutcome, type AgeGateActionData } from '../lib/age-gate.ts';
import { assertStorePrefix } from '../lib/guards.ts';
import { pageMeta } from '../lib/meta.ts';
import { safeRedirectPath, withBasePath } from '../lib/paths.ts';
import { useRootData } from '../lib/root-data.ts';
import { ageConfirmedCookie, licenseTypeCookie, readShopper } from '../lib/shopper.ts';

/**
 * POST /age-gate (and /:storeCode/age-gate): the age gate's action (lib/age-gate.ts has the
 * contract). Without JavaScript a successful answer redirects (303) back to the page the shopper
 * was on; a fetcher submission (`js=1`) gets data and the page revalidates in place. A failed
 * answer without JavaScript renders this route: the gate on its own page (empty layout).
 *
 * GET /age-gate shows the same gate, or the licence choice with `?change=license`; a shopper who
 * already confirmed is sent back to `redirectTo`.
 */
export async function action({ request, url, context, params }: Route.ActionArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  const form = await request.formData();
  const home = withBasePath(context.basePath, '/');
  const redirectTo = safeRedirectPath(form.get(AGE_GATE_FIELD.redirectTo), home);
  const viaFetcher = form.get(AGE_GATE_FIELD.js) === '1';
  const result = evaluateAgeGate(form, context.store);

  // The overlay's native post (no JS yet): the outcome goes back to the shopper's page, under the gate.
  const fromOverlay = !viaFetcher && form.get(AGE_GATE_FIELD.page) !== '1' && result.intent !== 'license';
  if (!result.ok && fromOverlay) throw redirect(withOutcome(redirectTo, result), { status: 303 });
  if (!result.ok) {
    return data<AgeGateActionData>({ result, redirectTo }, { status: 'refused' in result ? 403 : 400 });
  }
  const secure = url.protocol === 'https:';
  const headers = new Headers();
  if (result.intent === 'enter') headers.append('Set-Cookie', ageConfirmedCookie({ secure }));
  headers.append('Set-Cookie', licenseTypeCookie(result.licenseType, { secure }));
  if (viaFetcher) return data<AgeGateActionData>({ result, redirectTo }, { headers });
  throw redirect(redirectTo, { status: 303, headers });
}

export function loader({ request, url, context, params }: Route.LoaderArgs) {
  assertStorePrefix(params.storeCode, context.basePath);
  const redirectTo = safeRedirectPath(url.searchParams.get(AGE_GATE_FIELD.redirectTo), withBasePath(context.basePath, '/'));
  const shopper = readShopper(request.headers.get('Cookie'), context.store);
  const wantsLicense = url.searchParams.get('change') === 'license';
  if (shopper.ageConfirmed && !wantsLicense) throw redirect(redirectTo);
  return {
    redirectTo,
    mode: shopper.ageConfirmed ? ('license' as const) : ('gate' as const),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, {
    title: loaderData?.mode === 'license' ? LICENSE_DIALOG_TITLE : 'Age verification',
    noindex: true,
  });

const ID = 'age-gate-page';

export default function AgeGatePage({ loaderData, actionData }: Route.ComponentProps) {
  const { store, shopper, basePath } = useRootData();
  const navigation = useNavigation();
  const result = actionData?.result;
  const redirectTo = actionData?.redirectTo ?? loaderData.redirectTo;
  const errors = result && !result.ok && 'errors' in result ? result.errors : undefined;
  const action = withBasePath(basePath, AGE_GATE_PATH);
  const licenseMode = loaderData.mode === 'license' && result?.intent !== 'enter' && result?.intent !== 'refuse';

  return (
    <div className="flex min-h-dvh items-center justify-center bg-stone-900 px-4 py-8">
      {licenseMode ? (
        <AgeGateCard
          store={store}
          titleId={`${ID}-title`}
          descriptionId={`${ID}-description`}
          headingLevel={1}
          title={LICENSE_DIALOG_TITLE}
          description="Prices, deals and product lists follow your choice."
        >
          <Form method="post" action={action} noValidate>
            <input type="hidden" name={AGE_GATE_FIELD.intent} value="license" />
            <input type="hidden" name={AGE_GATE_FIELD.redirectTo} value={redirectTo} />
            <LicenseChoice idPrefix={ID} licenseTypes={store.licenseTypes} defaultValue={shopper.licenseType} error={errors?.licenseType} />
            <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
              <a
                href={redirectTo}
                className="inline-flex min-h-11 items-center justify-center rounded-full border border-stone-300 px-6 font-medium text-stone-800 hover:bg-stone-100"
              >
                Cancel
              </a>
              <button
                type="submit"
                className="inline-flex min-h-11 items-center justify-center rounded-full bg-brand px-6 font-semibold text-on-brand hover:opacity-90"
              >
                Save
              </button>
            </div>
          </Form>
        </AgeGateCard>
      ) : (
        <AgeGateCard store={store} titleId={`${ID}-title`} descriptionId={`${ID}-description`} headingLevel={1}>
          {/* A refusal never renders here: the action sends it back to the shopper's page. */}
          <Form method="post" action={action} noValidate>
            <input type="hidden" name={AGE_GATE_FIELD.page} value="1" />
            <AgeGateFields
              idPrefix={ID}
              licenseTypes={store.licenseTypes}
              defaultLicenseType={shopper.licenseType}
              redirectTo={redirectTo}
              certifyError={errors?.certify}
              licenseError={errors?.licenseType}
              pending={navigation.state === 'submitting'}
            />
          </Form>
        </AgeGateCard>
      )}
    </div>
  );
}
