import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMail } from './mime-message';
import { SMTPServer } from 'smtp-server';

export { parseMail };

/** A mail the server accepted: envelope, who authenticated, whether TLS was on, the raw text. */
export interface ReceivedMail {
  from: string;
  to: string[];
  user?: string;
  secure: boolean;
  raw: string;
}

/** A self-signed certificate for 127.0.0.1/localhost, made with openssl for this run. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'smtp-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Options of {@link SmtpTestServer}. */
export interface SmtpTestServerOptions {
  /** Offer STARTTLS (with a self-signed certificate). */
  starttls: boolean;
  /** Require AUTH with these credentials; without them AUTH is not offered. */
  credentials?: { user: string; pass: string };
}

/** A real SMTP server on loopback (the `smtp-server` package) that records what it accepts. */
export class SmtpTestServer {
  readonly mails: ReceivedMail[] = [];
  readonly authFailures: string[] = [];
  private server: SMTPServer | undefined;
  address = '';
  /** PEM of the certificate, for `tls_config.ca`. */
  cert = '';

  constructor(private readonly options: SmtpTestServerOptions) {}

  async start(): Promise<this> {
    const { key, cert } = this.options.starttls
      ? selfSignedCertificate()
      : { key: undefined, cert: undefined };
    this.cert = cert ?? '';
    const credentials = this.options.credentials;
    const disabled = [
      ...(this.options.starttls ? [] : ['STARTTLS']),
      ...(credentials ? [] : ['AUTH']),
    ];
    this.server = new SMTPServer({
      key,
      cert,
      disabledCommands: disabled,
      authOptional: !credentials,
      allowInsecureAuth: false,
      logger: false,
      onAuth: (auth, _session, callback) => {
        if (
          credentials &&
          auth.username === credentials.user &&
          auth.password === credentials.pass
        ) {
          callback(null, { user: auth.username });
          return;
        }
        this.authFailures.push(auth.username ?? '');
        callback(new Error('Invalid username or password'));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          this.mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            secure: session.secure,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    this.address = `127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
