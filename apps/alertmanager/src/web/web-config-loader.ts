import { readFileSync } from 'node:fs';
import { ConfigError } from '../config';
import { FILE_ERRORS } from '../config/file-errors';
import { statSignature, type FileSignature } from './file-signature';
import { parseWebConfig, type WebConfigStage } from './web-config.decoder';
import type { WebConfig } from './web-config.model';

/** Reads the web config file's text; injectable for tests. */
export type ReadText = (path: string) => string;

/** The outcome of loading the web config: the config, or why it does not load. */
export type WebConfigState =
  { config: WebConfig; error?: undefined } | { error: Error; config?: undefined };

/** Where the current web config comes from. */
export interface WebConfigSource {
  current(): WebConfigState;
}

/**
 * The web config as it is on disk now. The toolkit re-reads and re-parses the file on every
 * request and every new TLS connection, so that a changed password or certificate applies
 * without a restart; this loader gives the same answers but parses only when the file's
 * signature (see {@link statSignature}) changed, so a request costs one `stat`. A file that
 * fails to load keeps failing, with the same error, until it changes.
 */
export class WebConfigLoader implements WebConfigSource {
  private cached: { signature: string; loaded: WebConfigState } | undefined;

  constructor(
    readonly file: string,
    private readonly signature: FileSignature = statSignature,
    private readonly read: ReadText = (path) => readFileSync(path, 'utf8'),
  ) {}

  /**
   * Loads the file for the server's start, with the checks the toolkit makes only then (bcrypt
   * hashes, HTTP/2 ciphers). Throws a `ConfigError` naming the file.
   */
  loadAtStartup(): WebConfig {
    const signature = this.signature(this.file);
    const config = this.parse('startup');
    this.cached = { signature, loaded: { config } };
    return config;
  }

  /** The current config, or the error that keeps it from loading. */
  current(): WebConfigState {
    const signature = this.signature(this.file);
    if (this.cached?.signature !== signature) {
      let loaded: WebConfigState;
      try {
        loaded = { config: this.parse('reload') };
      } catch (error) {
        loaded = { error: error as Error };
      }
      this.cached = { signature, loaded };
    }
    return this.cached.loaded;
  }

  private parse(stage: WebConfigStage): WebConfig {
    let text: string;
    try {
      text = this.read(this.file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      throw new ConfigError(FILE_ERRORS[code] ?? (error as Error).message, this.file);
    }
    return parseWebConfig(text, this.file, stage);
  }
}
