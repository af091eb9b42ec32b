import { readFile } from 'node:fs/promises';
import { configHash } from './config-hash';
import { ConfigError } from './config-error';
import { FILE_ERRORS } from './file-errors';
import type { AlertmanagerConfig } from './model/config.model';
import { parseConfig } from './parse-config';

/** A configuration loaded from disk, with the text it came from and its metric hash. */
export interface LoadedConfig {
  readonly file: string;
  readonly text: string;
  readonly config: AlertmanagerConfig;
  /** `alertmanager_config_hash`: see {@link configHash}. */
  readonly hash: number;
}

/** Reads, parses and validates a configuration file. Throws {@link ConfigError}. */
export async function loadConfigFile(file: string): Promise<LoadedConfig> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new ConfigError(FILE_ERRORS[code] ?? (err as Error).message, file);
  }
  const text = bytes.toString('utf8');
  return { file, text, config: parseConfig(text, file), hash: configHash(bytes) };
}
