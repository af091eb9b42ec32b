import { isAbsolute, resolve } from 'node:path';
import type { Document, LineCounter } from 'yaml';
import { ConfigError } from '../config-error';

/** What every decoder needs to report an error: the file name and how to turn offsets into lines. */
export class DecodeContext {
  constructor(
    readonly file: string,
    readonly document: Document,
    readonly lineCounter: LineCounter,
    readonly baseDir: string,
  ) {}

  /** Resolves a relative file path against the config file's directory, as upstream does. */
  resolvePath(path: string): string {
    return path === '' || isAbsolute(path) ? path : resolve(this.baseDir, path);
  }

  /** The 1-based line of a source offset. */
  lineAt(offset: number): number {
    return this.lineCounter.linePos(offset).line;
  }

  /** Builds the error for a problem at `path`, on `line` when known. */
  error(reason: string, path?: string, line?: number): ConfigError {
    return new ConfigError(reason, this.file, line, path === '' ? undefined : path);
  }
}
