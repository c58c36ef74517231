/**
 * How deals are shown (issue 28, "Display rules per store"): the store setting `deal-display`
 * (apps/server/src/deals/display-section.ts) — Automatic (by the store's state), Default, California
 * or Massachusetts adult use. Each choice lists what its preset forbids and where the rule comes from
 * (packages/domain/src/deals/words.ts), and "Automatic" says what it means for this store's state.
 * Only the words and how prices are drawn change: the server applies the same deals either way.
 * Saved through the settings section over the version read, with its history, like every section.
 */
import { useId } from 'react';
import {
  DEAL_DISPLAY_CHOICES,
  DEAL_DISPLAY_PRESETS,
  dealDisplayPresetFor,
  type DealDisplayChoice,
  type DealDisplayPreset,
  type DealDisplayRules,
  type DealDisplaySettings,
} from '@verdant/domain';
import { SaveButton, SettingsForm, SettingsHistory, SettingsLoading } from '../components/settings/SettingsForm.tsx';
import { PageTitle } from '../components/ui.tsx';
import { useSettingsSection, type SettingsSource } from '../lib/use-settings-section.ts';
import { useStore, useTitle } from './layout.tsx';

const SOURCE: Record<SettingsSource, string> = {
  saved: 'saved in the console',
  'stores-file': 'from the stores file',
  default: 'the default',
};

const CHOICE_LABEL: Record<DealDisplayChoice, string> = {
  auto: 'Automatic, by the store’s state',
  default: 'Default',
  CA: 'California',
  MA_ADULT_USE: 'Massachusetts, adult use',
};

/** What each rule forbids, in the words a manager reads. */
const RULE_TEXT: Record<keyof DealDisplayRules, string> = {
  noFreeWord: 'Never the word “free” (a $0.01 item is shown as $0.01)',
  noSaleWord: 'No word “sale” (special prices are called “Special”)',
  noPercentOff: 'No percent off and no amount off: the price after the deal only',
  noStrikethrough: 'No struck-through earlier price beside the deal price',
};

const RULE_KEYS = Object.keys(RULE_TEXT) as (keyof DealDisplayRules)[];

function forbidden(preset: DealDisplayPreset): string[] {
  return RULE_KEYS.filter((k) => preset.rules[k]).map((k) => RULE_TEXT[k]);
}

/** What "Automatic" means for a store in `region`: the preset its recreational pages follow. */
function automaticText(region: string | null): string {
  const preset = dealDisplayPresetFor({ preset: 'auto' }, region, 'recreational');
  const where = region ? `This store’s address is in ${region}` : 'This store’s address names no state';
  if (preset.id === 'MA_ADULT_USE') return `${where}: Automatic follows the Massachusetts adult-use rules on recreational pages and the default on medical ones.`;
  if (preset.id === 'CA') return `${where}: Automatic follows the California rules.`;
  return `${where}: Automatic follows the default (only Massachusetts and California have presets of their own).`;
}

export function DealDisplaySettingsPage() {
  useTitle('How deals are shown');
  const { store } = useStore();
  const autoHelp = useId();
  const form = useSettingsSection<DealDisplaySettings, DealDisplayChoice>({
    section: 'deal-display',
    toDraft: (v) => v.preset,
    toValue: (d) => ({ preset: d }),
    savedText: 'Deal display saved.',
    staleText: 'Someone saved the deal display meanwhile. Their choice is shown now; make your change again.',
  });
  if (!form.current || form.draft === null) return <SettingsLoading form={form} />;
  const current = form.current;
  const region = store.region ?? null;
  const automatic = dealDisplayPresetFor({ preset: 'auto' }, region, 'recreational');

  return (
    <>
      <PageTitle>How deals are shown</PageTitle>
      <p className="mb-4 max-w-3xl text-stone-700">
        Some states limit how a menu may advertise a deal. The storefront follows the rules chosen here on product cards, product pages, the
        sale page, the cart and checkout. Only the words and how prices are drawn change: every order gets the same deals whichever is chosen.
        Now: {CHOICE_LABEL[current.value.preset]} ({SOURCE[current.source]}).
      </p>
      <SettingsForm form={form} label="How deals are shown" problemsTitle="The deal display was not saved:" className="grid max-w-3xl gap-4">
        <fieldset className="card grid min-w-0 gap-4" aria-describedby={autoHelp}>
          <legend className="font-semibold">Rules the storefront follows</legend>
          <p id={autoHelp} className="text-sm text-stone-700">
            {automaticText(region)}
          </p>
          {DEAL_DISPLAY_CHOICES.map((choice) => {
            const preset = choice === 'auto' ? automatic : DEAL_DISPLAY_PRESETS[choice];
            const id = `deal-display-${choice}`;
            return (
              <div key={choice} className="grid min-w-0 grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                <input
                  id={id}
                  type="radio"
                  name="deal-display"
                  className="mt-1 size-5"
                  value={choice}
                  checked={form.draft === choice}
                  onChange={() => form.setDraft(choice)}
                  aria-describedby={`${id}-rules`}
                />
                <label htmlFor={id} className="font-semibold">
                  {CHOICE_LABEL[choice]}
                  {choice === 'auto' ? <span className="font-normal"> (now: {CHOICE_LABEL[preset.id]})</span> : null}
                </label>
                <div id={`${id}-rules`} className="col-start-2 min-w-0 text-sm text-stone-800">
                  <p>{forbidden(preset).length ? 'Forbids:' : 'Forbids nothing.'}</p>
                  {forbidden(preset).length ? (
                    <ul className="list-disc pl-5">
                      {forbidden(preset).map((rule) => (
                        <li key={rule}>{rule}</li>
                      ))}
                    </ul>
                  ) : null}
                  {preset.id === 'MA_ADULT_USE' ? <p>On recreational pages only: medical shoppers see the default.</p> : null}
                  <p className="mt-1 break-words text-stone-700">Source: {preset.sources.join(' ')}</p>
                </div>
              </div>
            );
          })}
        </fieldset>
        <SaveButton form={form} />
      </SettingsForm>
      <SettingsHistory form={form} />
    </>
  );
}
