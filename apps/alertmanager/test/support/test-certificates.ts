import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess } from '@redisx/testing';
import { installedCommand } from './installed-command';

/** Path of the `openssl` CLI, or undefined when it is not installed. */
export const OPENSSL_BIN = installedCommand('openssl') || undefined;

/** PEM files made for one test run, all in its directory. */
export interface TestCertificates {
  /** The test CA that signed `server`, `rotated` and `client`. */
  ca: string;
  /** For 127.0.0.1 and localhost, CN `localhost`. */
  server: { cert: string; key: string };
  /** Another certificate for the same names, CN `rotated`, to replace `server` while running. */
  rotated: { cert: string; key: string };
  /** A client certificate with SANs `client.test` and `ops@example.test`. */
  client: { cert: string; key: string };
  /** A self-signed client certificate the CA never saw. */
  stranger: { cert: string; key: string };
}

async function openssl(dir: string, ...args: string[]): Promise<void> {
  const { code, stderr } = await runProcess(OPENSSL_BIN ?? 'openssl', args, { cwd: dir });
  if (code !== 0) throw new Error(`openssl ${args[0]} failed: ${stderr}`);
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** A key and a certificate signed by the CA in `dir`, with the given extensions. */
async function issue(dir: string, name: string, cn: string, extensions: string) {
  await writeFile(join(dir, `${name}.ext`), extensions);
  const subject = ['-subj', `/CN=${cn}`];
  await openssl(
    dir,
    'req',
    '-new',
    ...EC_KEY,
    ...subject,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
  );
  await openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.crt`,
  );
  return { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
}

/**
 * Makes a CA, server certificates (SANs 127.0.0.1 and localhost), a client certificate and a
 * stranger's with the `openssl` CLI in `dir`. EC P-256 keys keep it fast.
 */
export async function makeTestCertificates(dir: string): Promise<TestCertificates> {
  const selfSigned = ['req', '-x509', ...EC_KEY, '-days', '2'];
  await openssl(dir, ...selfSigned, '-keyout', 'ca.key', '-out', 'ca.crt', '-subj', '/CN=Test CA');
  const serverExt = 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n';
  const server = await issue(dir, 'server', 'localhost', serverExt);
  const rotated = await issue(dir, 'rotated', 'rotated', serverExt);
  const client = await issue(
    dir,
    'client',
    'client',
    'subjectAltName=DNS:client.test,email:ops@example.test\nextendedKeyUsage=clientAuth\n',
  );
  await openssl(
    dir,
    ...selfSigned,
    '-keyout',
    'stranger.key',
    '-out',
    'stranger.crt',
    '-subj',
    '/CN=stranger',
    '-addext',
    'subjectAltName=DNS:client.test',
  );
  const stranger = { cert: join(dir, 'stranger.crt'), key: join(dir, 'stranger.key') };
  return { ca: join(dir, 'ca.crt'), server, rotated, client, stranger };
}

/**
 * A CA and a server certificate it signed for `name` (a DNS name), made in `dir`: for a stand-in
 * of a public endpoint, reached through a proxy, that the configuration trusts by `ca_file`.
 */
export async function makeServerCertificate(
  dir: string,
  name: string,
): Promise<{ ca: string; cert: string; key: string }> {
  await openssl(
    dir,
    'req',
    '-x509',
    ...EC_KEY,
    '-days',
    '2',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-subj',
    '/CN=Stand-in CA',
  );
  const server = await issue(
    dir,
    'server',
    name,
    `subjectAltName=DNS:${name}\nextendedKeyUsage=serverAuth\n`,
  );
  return { ca: join(dir, 'ca.crt'), ...server };
}
