import { dirname } from 'node:path';
import { isScalar, LineCounter, parseDocument, visit } from 'yaml';
import { ConfigError } from '../config-error';
import { DecodeContext } from './decode-context';
import { YamlValue } from './yaml-value';
import { goBinaryTag } from './go-binary';
import { goYamlSyntaxError } from './go-yaml-syntax-error';

/**
 * Parses a YAML file the way Go's yaml.v2 reads it (YAML 1.1: `yes`/`no`/`on`/`off` are
 * booleans, `<<` merges maps and `!!binary` is base64) and returns its root value, located in `file`; relative paths
 * in it resolve against the file's directory. A syntax error throws {@link ConfigError}; an
 * empty document (nothing or only comments) gives a null root.
 */
export function parseYamlRoot(text: string, file: string): YamlValue {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, {
    lineCounter,
    version: '1.1',
    prettyErrors: false,
    uniqueKeys: false,
    customTags: (tags) =>
      tags.map((tag) =>
        typeof tag === 'object' && tag.tag === goBinaryTag.tag ? goBinaryTag : tag,
      ),
  });
  // A syntax error reads as yaml.v2's (its line in its words); a repeated key is left to the
  // decoder, which names it as upstream's strict decoding does.
  const problem =
    document.errors.find((e) => e.code !== 'DUPLICATE_KEY') ??
    document.warnings.find((w) => w.code === 'BAD_DIRECTIVE');
  if (problem) throw new ConfigError(goYamlSyntaxError(text, problem, lineCounter), file);
  visit(document, {
    Alias(_, alias) {
      if (alias.resolve(document) === undefined)
        throw new ConfigError(`yaml: unknown anchor '${alias.source}' referenced`, file);
    },
  });
  const contents = document.contents;
  const root =
    contents === null || (isScalar(contents) && contents.value === null) ? null : contents;
  return new YamlValue(new DecodeContext(file, document, lineCounter, dirname(file)), root, '');
}
