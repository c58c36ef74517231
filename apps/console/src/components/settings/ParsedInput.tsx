import { useEffect, useState, type ComponentProps } from 'react';

/**
 * A text field over a parsed value (dollars over cents, a list over "a, b"): the text is the
 * field's own while it is typed ("4." or "94607," stay as typed), the value goes out as it parses,
 * and a value changed from elsewhere (a preset, the JSON editor, a 409's current value) is shown.
 */
export function ParsedInput<T>({
  value,
  format,
  parse,
  onValue,
  ...rest
}: { value: T; format(value: T): string; parse(text: string): T; onValue(value: T): void } & Omit<
  ComponentProps<'input'>,
  'value' | 'onChange'
>) {
  const [text, setText] = useState(format(value));
  useEffect(() => {
    if (JSON.stringify(parse(text)) !== JSON.stringify(value)) setText(format(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [value]);
  return (
    <input
      {...rest}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onValue(parse(e.target.value));
      }}
    />
  );
}
