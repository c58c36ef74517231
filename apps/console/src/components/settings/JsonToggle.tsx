/**
 * The switch between a settings form and the JSON it edits (delivery zones, purchase limits): the
 * form needs the JSON to parse, so while it does not the JSON editor stays open and the switch is
 * off. `id` is where a problem no form field shows is sent (the page's problem list links to it).
 */
export function JsonToggle({
  id,
  asJson,
  parses,
  onChange,
  formHint,
  jsonHint,
}: {
  id: string;
  asJson: boolean;
  /** Whether the draft's JSON parses into what the form edits. */
  parses: boolean;
  onChange: (asJson: boolean) => void;
  formHint: string;
  jsonHint: string;
}) {
  const shown = jsonShown(asJson, parses);
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button id={id} type="button" className="btn-secondary" aria-pressed={shown} disabled={!parses} onClick={() => onChange(!asJson)}>
        Edit as JSON
      </button>
      <span className="text-sm text-stone-700">
        {!parses ? 'The JSON has a mistake: fix it below to use the form again.' : shown ? jsonHint : formHint}
      </span>
    </div>
  );
}

/** The JSON editor is shown when asked for, and always while the JSON does not parse. */
export function jsonShown(asJson: boolean, parses: boolean): boolean {
  return asJson || !parses;
}
