import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { connect, createServer, type ConnectionOptions } from 'node:tls';
import { Secret } from '../config';
import { tlsServerSetup } from './tls-options';
import type { TlsServerConfig } from './web-config.model';

const dir = join(__dirname, 'testdata', 'tls');
const file = (name: string) => join(dir, name);

const config = (overrides: Partial<TlsServerConfig> = {}): TlsServerConfig => ({
  cert_file: file('server.crt'),
  key_file: file('server.key'),
  client_auth_type: 'NoClientCert',
  cipher_suites: [],
  curve_preferences: [],
  min_version: 'TLS12',
  max_version: 'TLS13',
  prefer_server_cipher_suites: true,
  ...overrides,
});

/** Completes a handshake against the setup's context; resolves with the protocol and cipher. */
async function handshake(setup: ReturnType<typeof tlsServerSetup>, client: ConnectionOptions) {
  const server = createServer(setup.context, (socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<string>((resolve, reject) => {
      const socket = connect(
        { port, host: '127.0.0.1', ca: readFileSync(file('server.crt')), ...client },
        () => {
          resolve(`${socket.getProtocol()} ${socket.getCipher().standardName}`);
          socket.end();
        },
      );
      socket.on('error', reject);
    });
  } finally {
    server.close();
  }
}

describe('TLS server options from tls_server_config', () => {
  it('reads the certificate files and maps versions, ciphers and curves', () => {
    const setup = tlsServerSetup(
      config({
        cipher_suites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_AES_128_GCM_SHA256'],
        curve_preferences: ['X25519', 'CurveP256'],
        max_version: 'TLS12',
        prefer_server_cipher_suites: false,
      }),
    );
    expect(setup.context).toEqual({
      cert: readFileSync(file('server.crt')),
      key: readFileSync(file('server.key')),
      minVersion: 'TLSv1.2',
      maxVersion: 'TLSv1.2',
      honorCipherOrder: false,
      ciphers:
        'ECDHE-ECDSA-AES256-GCM-SHA384:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256',
      ecdhCurve: 'X25519:P-256',
    });
  });

  it('takes inline PEM when no file is named', () => {
    const setup = tlsServerSetup(
      config({
        cert_file: undefined,
        key_file: undefined,
        cert: readFileSync(file('server.crt'), 'utf8'),
        key: new Secret(readFileSync(file('server.key'), 'utf8')),
        client_ca: 'CA PEM',
        client_auth_type: 'RequestClientCert',
      }),
    );
    expect(setup.context).toMatchObject({ ca: 'CA PEM' });
  });

  it.each([
    ['NoClientCert', false, false, false, false],
    ['RequestClientCert', true, false, false, false],
    ['RequireAnyClientCert', true, false, true, false],
    ['VerifyClientCertIfGiven', true, false, false, true],
    ['RequireAndVerifyClientCert', true, true, false, false],
  ] as const)('%s asks for a certificate: %s, lets OpenSSL refuse: %s', (type, ...flags) => {
    const setup = tlsServerSetup(config({ client_auth_type: type }));
    const { requestCert, rejectUnauthorized, requireCert, verifyIfGiven } = setup;
    expect([requestCert, rejectUnauthorized, requireCert, verifyIfGiven]).toEqual(flags);
  });

  it.each([
    [
      'a missing certificate file',
      config({ cert_file: '/nonexistent/server.crt' }),
      'failed to read cert_file (/nonexistent/server.crt): open /nonexistent/server.crt: no such file or directory',
    ],
    [
      'a missing key file',
      config({ key_file: '/nonexistent/server.key' }),
      'failed to read key_file (/nonexistent/server.key): open /nonexistent/server.key: no such file or directory',
    ],
    [
      'a missing client CA file',
      config({ client_ca_file: '/nonexistent/ca.crt', client_auth_type: 'RequestClientCert' }),
      'open /nonexistent/ca.crt: no such file or directory',
    ],
    [
      'a key of another certificate',
      config({ key_file: file('other.key') }),
      'failed to load X509KeyPair: tls: private key does not match public key',
    ],
    [
      'something that is not PEM',
      config({ cert_file: undefined, cert: 'not a certificate' }),
      'failed to load X509KeyPair: tls: failed to find any PEM data in certificate or key input',
    ],
  ])('refuses %s', (_, tls, message) => {
    expect(() => tlsServerSetup(tls)).toThrow(message);
  });

  it('serves only the configured TLS 1.2 suites, and TLS 1.3 with all of its suites', async () => {
    const setup = tlsServerSetup(
      config({ cipher_suites: ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'] }),
    );
    const tls12 = { maxVersion: 'TLSv1.2' } as const;
    expect(await handshake(setup, tls12)).toBe('TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384');
    await expect(
      handshake(setup, { ...tls12, ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }),
    ).rejects.toThrow(/handshake failure/);
    expect(await handshake(setup, { ciphers: 'TLS_CHACHA20_POLY1305_SHA256' })).toBe(
      'TLSv1.3 TLS_CHACHA20_POLY1305_SHA256',
    );
  });

  it('refuses clients outside min_version..max_version', async () => {
    const setup = tlsServerSetup(config({ min_version: 'TLS13' }));
    await expect(handshake(setup, { maxVersion: 'TLSv1.2' })).rejects.toThrow(/protocol version/);
    expect(await handshake(setup, {})).toMatch(/^TLSv1\.3 /);
  });
});
