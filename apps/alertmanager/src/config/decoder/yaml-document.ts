import { dirname } from 'node:path';
import { isScalar, LineCounter, parseDocument } from 'yaml';
import { ConfigError } from '../config-error';
import { DecodeContext } from './decode-context';
import { YamlValue } from './yaml-value';
import { goBinaryTag } from './go-binary';

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
    customTags: (tags) =>
      tags.map((tag) =>
        typeof tag === 'object' && tag.tag === goBinaryTag.tag ? goBinaryTag : tag,
      ),
  });
  const problem = document.errors[0];
  if (problem) {
    const reason = problem.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new ConfigError(`yaml: ${reason}`, file, lineCounter.linePos(problem.pos[0]).line);
  }
  const contents = document.contents;
  const root =
    contents === null || (isScalar(contents) && contents.value === null) ? null : contents;
  return new YamlValue(new DecodeContext(file, document, lineCounter, dirname(file)), root, '');
}
