import { compileRe2, type Re2Regexp } from '../re2';

/** The relabeling actions, as upstream names them (accepted in any case). */
const ACTIONS = [
  'replace',
  'keep',
  'drop',
  'keepequal',
  'dropequal',
  'hashmod',
  'labelmap',
  'labeldrop',
  'labelkeep',
  'lowercase',
  'uppercase',
] as const;

export type RelabelAction = (typeof ACTIONS)[number];

/** One relabeling rule, decoded, with its regex compiled once (anchored as upstream). */
export interface RelabelConfig {
  readonly sourceLabels: readonly string[];
  readonly separator: string;
  /** The regex as written, and compiled as `^(?:regex)$`. */
  readonly regexSource: string;
  readonly regex: Re2Regexp;
  readonly modulus: number;
  readonly targetLabel: string;
  readonly replacement: string;
  readonly action: RelabelAction;
}

/** A relabeling rule that does not decode, with upstream's message. */
export class RelabelConfigError extends Error {}

const FIELDS = [
  'source_labels',
  'separator',
  'regex',
  'modulus',
  'target_label',
  'replacement',
  'action',
];
const DEFAULTS = { separator: ';', regex: '(.*)', replacement: '$1', action: 'replace' };
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
/** Upstream's `relabelTarget`: label name characters and `$1`/`${name}` references. */
const RELABEL_TARGET = /^(?:(?:[a-zA-Z_]|\$(?:\{\w+\}|\w+))+\w*)+$/;

/**
 * Decodes one rule from its YAML value as upstream's `relabel.Config.UnmarshalYAML`: defaults
 * (`separator: ;`, `regex: (.*)`, `replacement: $1`, `action: replace`), unknown fields refused,
 * then every check with upstream's message.
 */
export function decodeRelabelConfig(value: unknown): RelabelConfig {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new RelabelConfigError('a relabeling rule must be a map');
  }
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!FIELDS.includes(key))
      throw new RelabelConfigError(`field ${key} not found in type relabel.plain`);
  }
  const text = (key: string, fallback: string): string => {
    const v = raw[key];
    if (v === undefined || v === null || v === '') return fallback;
    if (typeof v === 'object') throw new RelabelConfigError(`${key} must be a string`);
    return String(v);
  };
  const sourceLabels = raw['source_labels'] ?? [];
  if (!Array.isArray(sourceLabels))
    throw new RelabelConfigError('source_labels must be a list of label names');
  for (const name of sourceLabels) {
    if (typeof name !== 'string' || !LABEL_NAME.test(name)) {
      throw new RelabelConfigError(`${JSON.stringify(String(name))} is not a valid label name`);
    }
  }
  const modulusValue = raw['modulus'] ?? 0;
  if (typeof modulusValue !== 'number' || !Number.isInteger(modulusValue) || modulusValue < 0) {
    throw new RelabelConfigError(`modulus must be a non-negative integer`);
  }
  const actionText = text('action', DEFAULTS.action);
  const action = actionText.toLowerCase() as RelabelAction;
  if (!ACTIONS.includes(action))
    throw new RelabelConfigError(`unknown relabel action ${JSON.stringify(actionText)}`);
  const regexSource = raw['regex'] === undefined ? DEFAULTS.regex : text('regex', '');
  let regex: Re2Regexp;
  try {
    regex = compileRe2(`^(?:${regexSource})$`);
  } catch (error) {
    throw new RelabelConfigError((error as Error).message);
  }
  const config: RelabelConfig = {
    sourceLabels: sourceLabels as string[],
    separator: raw['separator'] === undefined ? DEFAULTS.separator : text('separator', ''),
    regexSource,
    regex,
    modulus: modulusValue,
    targetLabel: text('target_label', ''),
    replacement: raw['replacement'] === undefined ? DEFAULTS.replacement : text('replacement', ''),
    action,
  };
  validate(config, raw);
  return config;
}

function validate(c: RelabelConfig, raw: Record<string, unknown>): void {
  const fail = (message: string): never => {
    throw new RelabelConfigError(message);
  };
  const needsTarget = ['replace', 'hashmod', 'lowercase', 'uppercase', 'keepequal', 'dropequal'];
  const targetChecked = ['replace', 'lowercase', 'uppercase', 'keepequal', 'dropequal'];
  const plainTarget = ['lowercase', 'uppercase', 'keepequal', 'dropequal'];
  if (c.modulus === 0 && c.action === 'hashmod')
    fail('relabel configuration for hashmod requires non-zero modulus');
  if (needsTarget.includes(c.action) && c.targetLabel === '') {
    fail(`relabel configuration for ${c.action} action requires 'target_label' value`);
  }
  if (targetChecked.includes(c.action) && !RELABEL_TARGET.test(c.targetLabel)) {
    fail(`${JSON.stringify(c.targetLabel)} is invalid 'target_label' for ${c.action} action`);
  }
  if (plainTarget.includes(c.action) && c.replacement !== DEFAULTS.replacement) {
    fail(`'replacement' can not be set for ${c.action} action`);
  }
  if (c.action === 'labelmap' && !RELABEL_TARGET.test(c.replacement)) {
    fail(`${JSON.stringify(c.replacement)} is invalid 'replacement' for ${c.action} action`);
  }
  if (c.action === 'hashmod' && !LABEL_NAME.test(c.targetLabel)) {
    fail(`${JSON.stringify(c.targetLabel)} is invalid 'target_label' for ${c.action} action`);
  }
  if (
    (c.action === 'dropequal' || c.action === 'keepequal') &&
    (c.regexSource !== DEFAULTS.regex ||
      c.modulus !== 0 ||
      c.separator !== DEFAULTS.separator ||
      c.replacement !== DEFAULTS.replacement)
  ) {
    fail(
      `${c.action} action requires only 'source_labels' and \`target_label\`, and no other fields`,
    );
  }
  if (
    (c.action === 'labeldrop' || c.action === 'labelkeep') &&
    (raw['source_labels'] !== undefined ||
      c.targetLabel !== '' ||
      c.modulus !== 0 ||
      c.separator !== DEFAULTS.separator ||
      c.replacement !== DEFAULTS.replacement)
  ) {
    fail(`${c.action} action requires only 'regex', and no other fields`);
  }
}
