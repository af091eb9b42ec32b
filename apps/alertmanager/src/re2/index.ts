export type { Re2Pattern } from './re2-pattern';
export { Re2Regexp, checkRe2, compileAnchoredRe2, compileRe2 } from './re2-regexp';
export { RE2JS_MAX_COST } from './go-compile';
export { RegexpSyntaxError } from './regexp-syntax-error';
