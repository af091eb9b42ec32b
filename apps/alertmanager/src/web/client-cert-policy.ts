import type { TLSSocket } from 'node:tls';
import { hasAllowedSan } from './client-sans';
import type { TlsServerSetup } from './tls-options';

/**
 * Whether a connection's client certificate satisfies the parts of the policy OpenSSL did not
 * enforce during the handshake: a certificate required but not verified (Go's
 * RequireAnyClientCert), a given certificate that must verify (VerifyClientCertIfGiven), and
 * `client_allowed_sans`. Go checks the SANs whenever it asked for a certificate, so asking
 * and getting none fails them too.
 */
export function clientCertAccepted(socket: TLSSocket, setup: TlsServerSetup): boolean {
  if (!setup.requestCert) return true;
  const cert = socket.getPeerCertificate();
  const given = cert !== null && Object.keys(cert).length > 0;
  if (setup.requireCert && !given) return false;
  if (setup.verifyIfGiven && given && !socket.authorized) return false;
  if (setup.allowedSans !== undefined) {
    return given && hasAllowedSan(cert.subjectaltname, setup.allowedSans);
  }
  return true;
}
