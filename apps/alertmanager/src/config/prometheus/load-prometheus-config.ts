import { parseYamlRoot } from '../decoder/yaml-document';
import { readConfigText } from '../file-errors';
import { decodePrometheusConfig } from './prometheus-config.decoder';
import type { PrometheusConfig } from './prometheus-config.model';

/** Parses a Prometheus-style configuration; relative paths resolve against `file`'s directory. */
export function parsePrometheusConfig(text: string, file: string): PrometheusConfig {
  return decodePrometheusConfig(parseYamlRoot(text, file));
}

/** Reads and validates `--rules.config.file`. Throws a `ConfigError`. */
export async function loadPrometheusConfig(file: string): Promise<PrometheusConfig> {
  const text = await readConfigText(file);
  return parsePrometheusConfig(text, file);
}
