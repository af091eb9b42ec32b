import type { ExpandTemplate } from './expand-template';
import type { RelabelAction } from './relabel-action';
import type { RelabelRegexp } from './relabel-regexp';

/**
 * One relabeling rule, decoded with upstream's defaults and checked, with everything the hot
 * path needs compiled: the regex, and `target_label` and `replacement` as templates.
 */
export interface RelabelConfig {
  /** `source_labels`: their values, joined by {@link separator}, are what the rule looks at. */
  readonly sourceLabels: readonly string[];
  /** `separator`, `;` by default. */
  readonly separator: string;
  /** `regex`, `(.*)` by default ({@link RelabelRegexp.DEFAULT}). */
  readonly regex: RelabelRegexp;
  /** `modulus` of `hashmod`; a uint64 in upstream. */
  readonly modulus: bigint;
  /** `target_label`, expanded with the match for `replace`. */
  readonly targetLabel: ExpandTemplate;
  /** `replacement`, `$1` by default. */
  readonly replacement: ExpandTemplate;
  /** `action`, `replace` by default, lower case. */
  readonly action: RelabelAction;
}

/** Where a rule came from, as the configuration decoder hands it over. */
export interface RelabelRuleSource {
  /** The rule as the YAML parser's `toJS()` gives it. */
  readonly value: unknown;
  /** Where it is, `file:line: path`, put before its errors. */
  readonly where: string;
}
