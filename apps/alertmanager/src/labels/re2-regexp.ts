import { translateRe2 } from './re2-translator';

/**
 * Compiles a Go RE2 pattern to a JavaScript RegExp with the same meaning. Throws
 * {@link RegexpSyntaxError} (Go's message) when Go would reject the pattern.
 */
export function compileRe2(pattern: string): RegExp {
  return new RegExp(translateRe2(pattern), 'u');
}

/**
 * Compiles a label-matching regex the way Alertmanager does: fully anchored as `^(?:re)$`.
 * Errors therefore quote the anchored text, e.g. `missing closing ): \`^(?:()$\``.
 */
export function compileAnchoredRe2(pattern: string): RegExp {
  return compileRe2(`^(?:${pattern})$`);
}
