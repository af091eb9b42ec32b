import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as bcrypt from 'bcryptjs';
import { ConfigError } from '../config';
import { parseWebConfig } from './web-config.decoder';

// Each fixture starts with `# error: <message after "<file>:">`, as under src/config/testdata.
const dir = join(__dirname, 'testdata');
const cases = readdirSync(dir)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => {
    const text = readFileSync(join(dir, name), 'utf8');
    // Messages of whole-file errors have no line: the space after the file's colon is put back.
    const header = /^# error: (.*)$/m.exec(text)?.[1] ?? '';
    return [name, /^\d/.test(header) ? header : ` ${header}`, text] as const;
  });

const HASH = '$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi';

describe('web config decoder', () => {
  it('has fixtures, each with an expected error', () => {
    expect(cases.length).toBeGreaterThan(20);
    for (const [name, expected] of cases) expect([name, expected.trim()]).not.toEqual([name, '']);
  });

  it.each(cases)('refuses %s', (name, expected, text) => {
    const file = join(dir, name);
    let error: unknown;
    try {
      parseWebConfig(text, file, 'startup');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toBe(`${file}:${expected}`);
  });

  it('gives the toolkit defaults for an empty file: plain HTTP, no auth, HTTP/2 on', () => {
    expect(parseWebConfig('', '/etc/am/web.yml', 'startup')).toEqual({
      tls_server_config: undefined,
      http_server_config: { http2: true, headers: {} },
      rate_limit: { burst: 0, interval_ms: 0 },
      basic_auth_users: new Map(),
    });
  });

  it('reads every key, resolving paths against the file and keeping defaults', () => {
    const config = parseWebConfig(
      [
        'tls_server_config:',
        '  cert_file: tls/server.crt',
        '  key_file: /abs/server.key',
        '  client_ca_file: ca.crt',
        '  client_auth_type: RequireClientCert',
        '  cipher_suites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, TLS_AES_128_GCM_SHA256]',
        '  curve_preferences: [X25519, CurveP256]',
        '  max_version: TLS12',
        '  prefer_server_cipher_suites: false',
        '  client_allowed_sans: [client.test]',
        'http_server_config:',
        '  http2: false',
        '  headers:',
        '    X-Frame-Options: sameorigin',
        '    Strict-Transport-Security: max-age=31536000; includeSubDomains',
        'rate_limit:',
        '  burst: 5',
        '  interval: 1.5s',
        'basic_auth_users:',
        `  alice: ${HASH}`,
      ].join('\n'),
      '/etc/am/web.yml',
      'startup',
    );
    expect(config.tls_server_config).toEqual({
      cert: undefined,
      key: undefined,
      client_ca: undefined,
      cert_file: '/etc/am/tls/server.crt',
      key_file: '/abs/server.key',
      client_ca_file: '/etc/am/ca.crt',
      // The toolkit's old name for the same policy.
      client_auth_type: 'RequireAnyClientCert',
      cipher_suites: ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256'],
      curve_preferences: ['X25519', 'CurveP256'],
      min_version: 'TLS12',
      max_version: 'TLS12',
      prefer_server_cipher_suites: false,
      client_allowed_sans: ['client.test'],
    });
    expect(config.http_server_config).toEqual({
      http2: false,
      headers: {
        'X-Frame-Options': 'sameorigin',
        'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
      },
    });
    expect(config.rate_limit).toEqual({ burst: 5, interval_ms: 1500 });
    expect(config.basic_auth_users.get('alice')?.reveal()).toBe(HASH);
    expect(String(config.basic_auth_users.get('alice'))).toBe('<secret>');
  });

  it.each([
    ['min_version alone', 'tls_server_config:\n  min_version: TLS13\n'],
    ['empty paths', 'tls_server_config:\n  cert_file: ""\n  key_file: ""\n'],
  ])('keeps plain HTTP when no certificate, key, CA or policy is set (%s)', (_, text) => {
    expect(parseWebConfig(text, 'web.yml', 'startup').tls_server_config).toBeUndefined();
  });

  it('takes inline certificates and keys, the key as a secret', () => {
    const tls = parseWebConfig(
      'tls_server_config:\n  cert: CERT\n  key: KEY\n  client_ca: CA\n  client_auth_type: VerifyClientCertIfGiven\n',
      'web.yml',
      'startup',
    ).tls_server_config;
    expect(tls).toMatchObject({ cert: 'CERT', client_ca: 'CA' });
    expect(tls?.key?.reveal()).toBe('KEY');
  });

  it.each([
    ['a malformed hash', 'basic_auth_users:\n  john: doe\n'],
    [
      'HTTP/2 without its cipher',
      'tls_server_config:\n  cert: C\n  key: K\n  cipher_suites: [TLS_RSA_WITH_AES_128_CBC_SHA]\n',
    ],
  ])('checks %s only at startup, as the toolkit', (_, text) => {
    expect(() => parseWebConfig(text, 'web.yml', 'startup')).toThrow(ConfigError);
    expect(() => parseWebConfig(text, 'web.yml', 'reload')).not.toThrow();
  });

  it.each([
    ['a bare integer, in nanoseconds as Go reads it', '2000000000', 2000],
    ['a Go duration with units', '1m30s', 90_000],
  ])('reads a rate limit interval given as %s', (_, interval, ms) => {
    const config = parseWebConfig(
      `rate_limit:\n  burst: 1\n  interval: ${interval}\n`,
      'w',
      'reload',
    );
    expect(config.rate_limit.interval_ms).toBe(ms);
  });

  it('loads the bundled example, whose hash is the one of its example password', () => {
    const file = join(__dirname, '..', '..', 'config', 'web', 'web-config.example.yml');
    const config = parseWebConfig(readFileSync(file, 'utf8'), file, 'startup');
    expect(config.tls_server_config).toBeUndefined();
    expect(config.http_server_config.headers).toEqual({
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'deny',
    });
    const hash = config.basic_auth_users.get('admin')?.reveal() ?? '';
    expect(bcrypt.compareSync('change-me', hash)).toBe(true);
  });
});
