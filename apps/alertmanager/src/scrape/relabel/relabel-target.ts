import { compileRe2 } from '../../re2';

/**
 * Upstream's `relabelTarget`: a label name in which `$1`, `$name` and `${name}` references may
 * stand for parts of a name. Compiled with RE2 rather than as a JavaScript `RegExp` because its
 * nested repetitions backtrack exponentially on a long name that fails near its end.
 */
const RELABEL_TARGET = compileRe2('^(?:(?:[a-zA-Z_]|\\$(?:\\{\\w+\\}|\\w+))+\\w*)+$');

/**
 * Whether `text` may be a `replace` action's `target_label` or a `labelmap` action's
 * `replacement`: a classic label name once its `$` references are expanded.
 */
export function isRelabelTarget(text: string): boolean {
  return RELABEL_TARGET.test(text);
}
