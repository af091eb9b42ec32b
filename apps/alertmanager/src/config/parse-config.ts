import { ConfigError } from './config-error';
import { decodeConfig } from './config.decoder';
import { parseYamlRoot } from './decoder/yaml-document';
import type { AlertmanagerConfig } from './model/config.model';

/**
 * Parses and validates an Alertmanager configuration. `file` names the source in errors, and
 * relative paths in the config (templates, `*_file` fields) are resolved against its directory.
 * Throws {@link ConfigError}; referenced files are not read.
 */
export function parseConfig(text: string, file: string): AlertmanagerConfig {
  const root = parseYamlRoot(text, file);
  if (root.isNull) {
    // Upstream's own check for a file that is empty or only comments.
    throw new ConfigError('no route provided in config', file);
  }
  return decodeConfig(root);
}
