import type { TLSSocket } from 'node:tls';
import { clientCertAccepted } from './client-cert-policy';
import type { TlsServerSetup } from './tls-options';

const setup = (overrides: Partial<TlsServerSetup>): TlsServerSetup => ({
  context: {},
  requestCert: true,
  rejectUnauthorized: false,
  requireCert: false,
  verifyIfGiven: false,
  allowedSans: undefined,
  ...overrides,
});

const socket = (cert: object, authorized: boolean) =>
  ({ getPeerCertificate: () => cert, authorized }) as unknown as TLSSocket;

const verified = socket({ subjectaltname: 'DNS:client.test' }, true);
const unverified = socket({ subjectaltname: 'DNS:client.test' }, false);
const none = socket({}, false);

describe('client certificate policy after the handshake', () => {
  it.each([
    ['NoClientCert', setup({ requestCert: false }), none, true],
    ['RequestClientCert without a cert', setup({}), none, true],
    ['RequestClientCert with an unverified cert', setup({}), unverified, true],
    ['RequireAnyClientCert without a cert', setup({ requireCert: true }), none, false],
    [
      'RequireAnyClientCert with an unverified cert',
      setup({ requireCert: true }),
      unverified,
      true,
    ],
    ['VerifyClientCertIfGiven without a cert', setup({ verifyIfGiven: true }), none, true],
    ['VerifyClientCertIfGiven, unverified', setup({ verifyIfGiven: true }), unverified, false],
    ['VerifyClientCertIfGiven, verified', setup({ verifyIfGiven: true }), verified, true],
    ['allowed SANs, matching', setup({ allowedSans: ['client.test'] }), verified, true],
    ['allowed SANs, not matching', setup({ allowedSans: ['other'] }), verified, false],
    ['allowed SANs, no cert', setup({ allowedSans: ['client.test'] }), none, false],
  ])('%s: %s', (_, policy, conn, accepted) => {
    expect(clientCertAccepted(conn, policy)).toBe(accepted);
  });
});
