import { isValidLabelName, goQuote } from '../../labels';
import { RegexpSyntaxError } from '../../re2';
import { ExpandTemplate } from './expand-template';
import { parseRelabelAction, type RelabelAction } from './relabel-action';
import type { RelabelConfig, RelabelRuleSource } from './relabel-config';
import { RelabelConfigError } from './relabel-config-error';
import { RelabelRegexp } from './relabel-regexp';
import { validateRelabelConfig, type DecodedRule } from './validate-relabel-config';
import { typeError, yamlString, yamlUint64, YamlTypeError } from './yaml-scalars';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Decodes one relabeling rule from its plain YAML value (`toJS()`) as upstream's
 * `relabel.Config.UnmarshalYAML`: defaults for absent fields (`separator: ;`, `regex: (.*)`,
 * `replacement: $1`, `action: replace`), the zero value for null ones, unknown fields refused,
 * then upstream's checks. Throws {@link RelabelConfigError} with upstream's message.
 */
export function decodeRelabelConfig(value: unknown): RelabelConfig {
  const rule = readRule(value);
  validateRelabelConfig(rule);
  const expands = rule.action === 'replace' || rule.action === 'labelmap';
  return {
    sourceLabels: rule.sourceLabels ?? [],
    separator: rule.separator,
    regex: expands ? rule.regex.forExpansion() : rule.regex,
    modulus: rule.modulus,
    targetLabel: new ExpandTemplate(rule.targetLabel),
    replacement: new ExpandTemplate(rule.replacement),
    action: rule.action,
  };
}

/** Decodes a list of rules; an error names the rule's place before upstream's message. */
export function decodeRelabelConfigs(rules: readonly RelabelRuleSource[]): RelabelConfig[] {
  return rules.map(({ value, where }) => {
    try {
      return decodeRelabelConfig(value);
    } catch (error) {
      if (error instanceof RelabelConfigError) throw new RelabelConfigError(error.reason, where);
      throw error;
    }
  });
}

/**
 * Reads the fields in the order the file has them, as yaml.v2 does: a type error is kept and
 * reading goes on, an error of upstream's own parsers (action, regex, label name) stops at once
 * and is the one reported; the first type error is reported only when neither came.
 */
function readRule(value: unknown): DecodedRule {
  if (value === null || value === undefined) {
    throw new RelabelConfigError('empty or null relabeling rule');
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw typeError(value, 'relabel.plain');
  const rule: Mutable<DecodedRule> = {
    sourceLabels: undefined,
    separator: ';',
    regex: RelabelRegexp.DEFAULT,
    modulus: 0n,
    targetLabel: '',
    replacement: '$1',
    action: 'replace',
  };
  let typeFailure: YamlTypeError | undefined;
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    try {
      readField(rule, key, field);
    } catch (error) {
      if (!(error instanceof YamlTypeError)) throw error;
      typeFailure ??= error;
    }
  }
  if (typeFailure) throw typeFailure;
  return rule;
}

function readField(rule: Mutable<DecodedRule>, key: string, value: unknown): void {
  switch (key) {
    case 'source_labels':
      rule.sourceLabels = readSourceLabels(value);
      return;
    case 'separator':
      rule.separator = yamlString(value);
      return;
    case 'regex':
      rule.regex = readRegex(value);
      return;
    case 'modulus':
      rule.modulus = yamlUint64(value);
      return;
    case 'target_label':
      rule.targetLabel = yamlString(value);
      return;
    case 'replacement':
      rule.replacement = yamlString(value);
      return;
    case 'action':
      rule.action = readAction(value);
      return;
    default:
      throw new YamlTypeError(`field ${key} not found in type relabel.plain`);
  }
}

/**
 * `model.LabelNames`: each name checked as it is read (a bad one stops there, a list or map
 * in place of a name is a type error, and the next names are still read); a null item is the
 * empty name, as in Go.
 */
function readSourceLabels(value: unknown): string[] | undefined {
  if (value === null || value === undefined) return undefined;
  if (!Array.isArray(value)) throw typeError(value, 'model.LabelNames');
  const names: string[] = [];
  let typeFailure: YamlTypeError | undefined;
  for (const item of value as unknown[]) {
    if (item !== null && typeof item === 'object') {
      typeFailure ??= typeError(item, 'string');
      continue;
    }
    const name = yamlString(item);
    if (item !== null && item !== undefined && !isValidLabelName(name)) {
      throw new RelabelConfigError(`${goQuote(name)} is not a valid label name`);
    }
    names.push(name);
  }
  if (typeFailure) throw typeFailure;
  return names;
}

/** A null `regex` is the empty regex, which matches only the empty text. */
function readRegex(value: unknown): RelabelRegexp {
  const source = yamlString(value);
  try {
    return RelabelRegexp.compile(source);
  } catch (error) {
    if (error instanceof RegexpSyntaxError) throw new RelabelConfigError(error.message);
    throw error;
  }
}

/** A null `action` is empty (refused later); any other unknown text is refused here. */
function readAction(value: unknown): RelabelAction | undefined {
  if (value === null || value === undefined) return undefined;
  const text = yamlString(value);
  const action = parseRelabelAction(text);
  if (!action) throw new RelabelConfigError(`unknown relabel action ${goQuote(text)}`);
  return action;
}
