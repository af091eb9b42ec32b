import { decodeHttpConfig } from './decoder/http-config.decoder';
import { parseYamlRoot } from './decoder/yaml-document';
import { readConfigText } from './file-errors';
import type { HttpConfig } from './model/http-config.model';

/**
 * Parses a file holding only a Prometheus common `http_config` (amtool's `--http.config.file`),
 * with the same keys, defaults and validation rules as an `http_config` inside the
 * configuration; relative `*_file` paths resolve against the file's directory. An empty file
 * gives the defaults. Throws a `ConfigError`.
 */
export function parseHttpConfigFile(text: string, file: string): HttpConfig {
  return decodeHttpConfig(parseYamlRoot(text, file));
}

/** Reads and parses an HTTP client config file; see {@link parseHttpConfigFile}. */
export async function loadHttpConfigFile(file: string): Promise<HttpConfig> {
  const text = await readConfigText(file);
  return parseHttpConfigFile(text, file);
}
