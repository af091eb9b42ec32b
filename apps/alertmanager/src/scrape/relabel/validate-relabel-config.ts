import { goQuote, isValidLabelName } from '../../labels';
import type { RelabelAction } from './relabel-action';
import { RelabelConfigError } from './relabel-config-error';
import { RelabelRegexp } from './relabel-regexp';
import { isRelabelTarget } from './relabel-target';

/** A rule as decoded, before its templates are compiled. */
export interface DecodedRule {
  /** undefined when absent or null: upstream tells that from an empty list. */
  readonly sourceLabels: readonly string[] | undefined;
  readonly separator: string;
  readonly regex: RelabelRegexp;
  readonly modulus: bigint;
  readonly targetLabel: string;
  readonly replacement: string;
  /** undefined when absent or null. */
  readonly action: RelabelAction | undefined;
}

const NEEDS_TARGET: ReadonlySet<string> = new Set([
  'replace',
  'hashmod',
  'lowercase',
  'uppercase',
  'keepequal',
  'dropequal',
]);
/** The actions that write `target_label` as it is, without expanding it. */
const PLAIN_TARGET: ReadonlySet<string> = new Set([
  'lowercase',
  'uppercase',
  'keepequal',
  'dropequal',
]);

/**
 * Upstream's checks of a decoded rule, in upstream's order and with its messages. Where 2.42
 * and current upstream differ this follows current upstream with classic label names:
 * `lowercase`, `uppercase`, `keepequal` and `dropequal` write `target_label` unexpanded, so a
 * `$` in it is refused (2.42 let `${1}` through and then wrote a label of that name).
 */
export function validateRelabelConfig(rule: DecodedRule): asserts rule is DecodedRule & {
  action: RelabelAction;
} {
  const { action, targetLabel: target, replacement } = rule;
  const fail = (reason: string): never => {
    throw new RelabelConfigError(reason);
  };
  if (action === undefined) return fail('relabel action cannot be empty');
  if (action === 'hashmod' && rule.modulus === 0n) {
    fail('relabel configuration for hashmod requires non-zero modulus');
  }
  if (NEEDS_TARGET.has(action) && target === '') {
    fail(`relabel configuration for ${action} action requires 'target_label' value`);
  }
  const badTarget = () => `${goQuote(target)} is invalid 'target_label' for ${action} action`;
  if (action === 'replace' && !isRelabelTarget(target)) fail(badTarget());
  if (PLAIN_TARGET.has(action) && !isValidLabelName(target)) fail(badTarget());
  if (PLAIN_TARGET.has(action) && replacement !== '$1') {
    fail(`'replacement' can not be set for ${action} action`);
  }
  if (action === 'labelmap' && !isRelabelTarget(replacement)) {
    fail(`${goQuote(replacement)} is invalid 'replacement' for ${action} action`);
  }
  if (action === 'hashmod' && !isValidLabelName(target)) fail(badTarget());
  const defaultsOtherwise = rule.modulus === 0n && rule.separator === ';' && replacement === '$1';
  if (
    (action === 'keepequal' || action === 'dropequal') &&
    !(defaultsOtherwise && rule.regex === RelabelRegexp.DEFAULT)
  ) {
    fail(
      `${action} action requires only 'source_labels' and \`target_label\`, and no other fields`,
    );
  }
  if (
    (action === 'labeldrop' || action === 'labelkeep') &&
    !(defaultsOtherwise && rule.sourceLabels === undefined && target === '')
  ) {
    fail(`${action} action requires only 'regex', and no other fields`);
  }
}
