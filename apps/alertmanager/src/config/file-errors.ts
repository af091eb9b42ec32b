import { readFile } from 'node:fs/promises';
import { ConfigError } from './config-error';

/** Go's texts for the file errors a user can fix, instead of Node's errno dump. */
export const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
};

/** Reads a configuration file as text; a file that cannot be read throws {@link ConfigError} naming it. */
export async function readConfigText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new ConfigError(FILE_ERRORS[code] ?? (err as Error).message, file);
  }
}
