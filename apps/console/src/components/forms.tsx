/**
 * Form pieces the console's pages share (issue 27): a group of checkboxes that picks some of a
 * list (an API key's scopes, a webhook's events) and the new-password field with its rule (the
 * account page and the reset link).
 */

/** A fieldset of checkboxes over `options`; `value` is the picked ones, in the order they were picked. */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
}: {
  legend: string;
  options: readonly { value: T; label: string }[];
  value: readonly T[];
  onChange: (value: T[]) => void;
}) {
  return (
    <fieldset>
      <legend className="font-semibold">{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="flex items-center gap-2 font-normal">
          <input
            type="checkbox"
            className="size-5"
            checked={value.includes(option.value)}
            onChange={(e) => onChange(e.target.checked ? [...value, option.value] : value.filter((v) => v !== option.value))}
          />
          {option.label}
        </label>
      ))}
    </fieldset>
  );
}

/** The staff password rule (the server refuses weak and context-derived passwords, issue 26). */
export const NEW_PASSWORD_RULE =
  'At least 10 characters and hard to guess: not your e-mail, a store’s name or a common password. Three or four unrelated words work well.';

/** A new password's field, with the rule as its description. */
export function NewPasswordField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <div>
      <label htmlFor={id}>New password</label>
      <p id={`${id}-help`} className="text-sm text-stone-700">
        {NEW_PASSWORD_RULE}
      </p>
      <input
        id={id}
        className="field"
        type="password"
        autoComplete="new-password"
        aria-describedby={`${id}-help`}
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
