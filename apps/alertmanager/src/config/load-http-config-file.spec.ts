import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config-error';
import { loadHttpConfigFile, parseHttpConfigFile } from './load-http-config-file';

describe('HTTP client config file', () => {
  it('gives upstream defaults for an empty file', () => {
    expect(parseHttpConfigFile('', '/etc/amtool/http.yml')).toMatchObject({
      basic_auth: undefined,
      authorization: undefined,
      follow_redirects: true,
      enable_http2: true,
      tls_config: { insecure_skip_verify: false },
    });
  });

  it('reads auth and TLS settings, resolving files against its directory', () => {
    const config = parseHttpConfigFile(
      [
        'basic_auth:',
        '  username: admin',
        '  password_file: secrets/password',
        'tls_config:',
        '  ca_file: ca.crt',
        '  cert_file: /abs/client.crt',
        '  key_file: client.key',
        '  server_name: am.example.test',
        '  min_version: TLS13',
        'follow_redirects: false',
      ].join('\n'),
      '/etc/amtool/http.yml',
    );
    expect(config.basic_auth).toEqual({
      username: 'admin',
      username_file: undefined,
      password: undefined,
      password_file: '/etc/amtool/secrets/password',
    });
    expect(config.tls_config).toMatchObject({
      ca_file: '/etc/amtool/ca.crt',
      cert_file: '/abs/client.crt',
      key_file: '/etc/amtool/client.key',
      server_name: 'am.example.test',
      min_version: 'TLS13',
    });
    expect(config.follow_redirects).toBe(false);
  });

  it.each([
    ['bearer_token: abc\n', 'Bearer', 'abc'],
    ['authorization:\n  type: Token\n  credentials: xyz\n', 'Token', 'xyz'],
    ['authorization:\n  credentials: xyz\n', 'Bearer', 'xyz'],
  ])('reads %j as an Authorization type and credentials', (text, type, credentials) => {
    const { authorization } = parseHttpConfigFile(text, 'http.yml');
    expect([authorization?.type, authorization?.credentials?.reveal()]).toEqual([
      type,
      credentials,
    ]);
  });

  it.each([
    ['foo: 1\n', 'http.yml:1: foo: field foo not found'],
    [
      'basic_auth:\n  username: a\nauthorization:\n  credentials: x\n',
      'http.yml:1: at most one of basic_auth, oauth2 & authorization must be configured',
    ],
    [
      'basic_auth:\n  username: a\nbearer_token: x\n',
      'http.yml:1: at most one of basic_auth, oauth2, bearer_token & bearer_token_file must be configured',
    ],
    [
      'basic_auth:\n  password: a\n  password_file: b\n',
      'http.yml:2: basic_auth: at most one of basic_auth password, password_file & password_ref must be configured',
    ],
    [
      'authorization:\n  type: basic\n',
      'http.yml:2: authorization: authorization type cannot be set to "basic", use "basic_auth" instead',
    ],
    [
      'tls_config:\n  cert_file: c.crt\n',
      'http.yml:2: tls_config: exactly one of key or key_file must be configured when a client certificate is configured',
    ],
    [
      'tls_config:\n  min_version: TLS14\n',
      'http.yml:2: tls_config.min_version: unknown TLS version: TLS14',
    ],
  ])('refuses %j', (text, message) => {
    expect(() => parseHttpConfigFile(text, 'http.yml')).toThrow(new ConfigError(message));
  });

  it('names a missing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'http-config-'));
    try {
      await writeFile(join(dir, 'ok.yml'), 'bearer_token: t\n');
      expect((await loadHttpConfigFile(join(dir, 'ok.yml'))).authorization?.type).toBe('Bearer');
      await expect(loadHttpConfigFile(join(dir, 'nope.yml'))).rejects.toThrow(
        `${join(dir, 'nope.yml')}: no such file or directory`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
