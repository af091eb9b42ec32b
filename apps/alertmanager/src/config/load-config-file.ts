import { readFile } from 'node:fs/promises';
import { configHash } from './config-hash';
import { ConfigError } from './config-error';
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

// Go's texts for the file errors a user can fix, instead of Node's errno dump.
const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};

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
