import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TlsMaterial } from './tls-material';
import type { TlsServerConfig } from './web-config.model';

const dir = join(__dirname, 'testdata', 'tls');

const config = (): TlsServerConfig => ({
  cert_file: join(dir, 'server.crt'),
  key_file: join(dir, 'server.key'),
  client_auth_type: 'NoClientCert',
  cipher_suites: [],
  curve_preferences: [],
  min_version: 'TLS12',
  max_version: 'TLS13',
  prefer_server_cipher_suites: true,
});

describe('TLS material', () => {
  function material() {
    const stamps: Record<string, number> = {};
    const reads: string[] = [];
    const tls = new TlsMaterial(
      (path) => `v${stamps[path] ?? 0}`,
      (path) => {
        reads.push(path);
        return readFileSync(path);
      },
    );
    return { tls, stamps, reads };
  }

  it('builds once for the same config and unchanged files', () => {
    const { tls, reads } = material();
    const tlsConfig = config();
    const first = tls.current(tlsConfig).setup;
    expect(first).toBeDefined();
    expect(tls.current(tlsConfig).setup).toBe(first);
    expect(reads).toHaveLength(2);
  });

  it('rebuilds when a certificate file changes or the config is a new one', () => {
    const { tls, stamps, reads } = material();
    const tlsConfig = config();
    const first = tls.current(tlsConfig).setup;
    stamps[join(dir, 'server.crt')] = 1;
    const renewed = tls.current(tlsConfig).setup;
    expect(renewed).not.toBe(first);
    expect(tls.current(config()).setup).not.toBe(renewed);
    expect(reads).toHaveLength(6);
  });

  it('gives the error of material that does not load', () => {
    const { tls } = material();
    const broken = { ...config(), key_file: join(dir, 'other.key') };
    expect(tls.current(broken).error?.message).toBe(
      'failed to load X509KeyPair: tls: private key does not match public key',
    );
  });
});
