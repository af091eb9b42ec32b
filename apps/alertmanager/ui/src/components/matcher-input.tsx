import { useMemo } from 'preact/hooks';
import type { LabelSet } from '../api';
import { LABEL_NAME, OPERATOR } from '../matchers';

/** The last matcher being typed once it has its operator: name, operator, the value so far. */
const TYPED_OPERATOR = new RegExp(`^(${LABEL_NAME})(${OPERATOR})"?([^"]*)$`);

/**
 * A matcher list field (`alertname="Down", severity=~"crit.*"`) that suggests label names and,
 * after `name=`, that label's values, from the labels the page knows.
 */
export function MatcherInput(props: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  known: LabelSet[];
  placeholder?: string;
}) {
  const { id, value, known } = props;
  const suggestions = useMemo(() => suggest(value, known), [value, known]);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        list={`${id}-suggestions`}
        autocomplete="off"
        spellcheck={false}
        value={value}
        placeholder={props.placeholder ?? 'alertname="Down", severity=~"crit.*"'}
        onInput={(event) => props.onInput((event.target as HTMLInputElement).value)}
      />
      <datalist id={`${id}-suggestions`}>
        {suggestions.map((s) => (
          <option value={s} key={s} />
        ))}
      </datalist>
    </div>
  );
}

/** Completions of the last matcher being typed, each the whole field's text. */
function suggest(value: string, known: LabelSet[]): string[] {
  const cut = value.lastIndexOf(',');
  const head = cut < 0 ? '' : `${value.slice(0, cut + 1)} `;
  const last = value
    .slice(cut + 1)
    .trim()
    .replace(/^\{/, '');
  const prefix = cut < 0 && value.trim().startsWith('{') ? '{' : '';
  const names = new Set<string>();
  for (const labels of known) for (const name of Object.keys(labels)) names.add(name);
  const operator = TYPED_OPERATOR.exec(last);
  if (operator) {
    const [, name, op, partial] = operator;
    const values = new Set<string>();
    for (const labels of known) if (labels[name] !== undefined) values.add(labels[name]);
    return [...values]
      .filter((v) => v.startsWith(partial))
      .sort()
      .slice(0, 50)
      .map((v) => `${prefix}${head}${name}${op}${JSON.stringify(v)}`);
  }
  return [...names]
    .filter((name) => name.startsWith(last))
    .sort()
    .slice(0, 50)
    .map((name) => `${prefix}${head}${name}=`);
}
