import { readFileSync } from 'node:fs';
import { statSignature, type FileSignature } from './file-signature';
import { tlsServerSetup, type ReadFile, type TlsServerSetup } from './tls-options';
import type { TlsServerConfig } from './web-config.model';

type Built = { setup: TlsServerSetup; error?: undefined } | { error: Error; setup?: undefined };

/**
 * The TLS setup for the current `tls_server_config` and the certificate files it names. The
 * toolkit reloads both at every handshake, so a renewed certificate is served to the next
 * connection; here they are rebuilt only when the config or one of the files changed, and the
 * same setup object is returned otherwise (callers compare it to know when to apply it).
 */
export class TlsMaterial {
  private cached: { config: TlsServerConfig; signatures: string; built: Built } | undefined;

  constructor(
    private readonly signature: FileSignature = statSignature,
    private readonly read: ReadFile = readFileSync,
  ) {}

  /** The setup for `config`, or the error that keeps it from being built. */
  current(config: TlsServerConfig): Built {
    const files = [config.cert_file, config.key_file, config.client_ca_file];
    const signatures = files.map((f) => (f ? this.signature(f) : '')).join('|');
    if (this.cached?.config !== config || this.cached.signatures !== signatures) {
      let built: Built;
      try {
        built = { setup: tlsServerSetup(config, this.read) };
      } catch (error) {
        built = { error: error as Error };
      }
      this.cached = { config, signatures, built };
    }
    return this.cached.built;
  }
}
