import { BUILTINS } from './funcs/builtins';
import { parseTemplate } from './parse/parser';
import { TemplateError } from './template-error';

/**
 * Why Go's `text/template` would refuse to parse `source` as template `name` with Go's builtins
 * and `functions` defined, or undefined when it parses. For checks of templates this package
 * does not execute (Prometheus's rule labels and annotations).
 */
export function templateSyntaxProblem(
  name: string,
  source: string,
  functions: ReadonlySet<string>,
): string | undefined {
  try {
    parseTemplate(name, source, (f) => f in BUILTINS || functions.has(f));
    return undefined;
  } catch (error) {
    if (error instanceof TemplateError) return error.message;
    throw error;
  }
}
