import { dirname } from 'node:path';
import { isScalar, LineCounter, parseDocument } from 'yaml';
import { ConfigError } from './config-error';
import { decodeConfig } from './config.decoder';
import { DecodeContext } from './decoder/decode-context';
import { YamlValue } from './decoder/yaml-value';
import type { AlertmanagerConfig } from './model/config.model';
import { goBinaryTag } from './decoder/go-binary';

/**
 * Parses and validates an Alertmanager configuration. `file` names the source in errors, and
 * relative paths in the config (templates, `*_file` fields) are resolved against its directory.
 * Throws {@link ConfigError}; referenced files are not read.
 */
export function parseConfig(text: string, file: string): AlertmanagerConfig {
  const lineCounter = new LineCounter();
  // YAML 1.1 like Go's yaml.v2: `yes`/`no`/`on`/`off` are booleans and `<<` merges maps.
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
  if (contents === null || (isScalar(contents) && contents.value === null)) {
    // Upstream's own check for a file that is empty or only comments.
    throw new ConfigError('no route provided in config', file);
  }
  const ctx = new DecodeContext(file, document, lineCounter, dirname(file));
  return decodeConfig(new YamlValue(ctx, contents, ''));
}
