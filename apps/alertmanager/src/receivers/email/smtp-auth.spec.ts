import { createTransport } from 'nodemailer';
import type { EmailConfig } from '../../config';
import { Secret } from '../../config/model/secret';
import { smtpAuth } from './smtp-auth';
import { loopbackSmtpServer } from './testing/loopback-smtp-server';

/** A real SMTP server offering some AUTH mechanisms; it records the one each login used. */
async function smtpServer(
  methods: string[],
): Promise<{ port: number; used: string[]; close(): Promise<void> }> {
  const used: string[] = [];
  const server = await loopbackSmtpServer({
    authMethods: methods,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth: (auth, _session, callback) => {
      used.push(auth.method);
      const ok =
        auth.username === 'am' &&
        (auth.method === 'CRAM-MD5' ? auth.validatePassword('s3cret') : auth.password === 'pa55');
      if (ok) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
  });
  return { ...server, used };
}

function config(credentials: { password?: string; secret?: string }): EmailConfig {
  return {
    auth_username: 'am',
    auth_password:
      credentials.password === undefined ? undefined : new Secret(credentials.password),
    auth_secret: credentials.secret === undefined ? undefined : new Secret(credentials.secret),
  } as EmailConfig;
}

/** Sends one mail with the AUTH options of `smtpAuth`; the error's message when it fails. */
async function send(port: number, cfg: EmailConfig): Promise<string> {
  const transport = createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    ignoreTLS: true,
    logger: false,
    ...(await smtpAuth(cfg)),
  });
  try {
    await transport.sendMail({
      envelope: { from: 'a@x.org', to: ['b@x.org'] },
      raw: 'Subject: t\r\n\r\nhi\r\n',
    });
    return 'sent';
  } catch (error) {
    return (error as Error).message;
  } finally {
    transport.close();
  }
}

describe('SMTP AUTH as upstream chooses it', () => {
  it.each([
    ['CRAM-MD5 with the secret', ['CRAM-MD5'], { secret: 's3cret' }, 'sent', ['CRAM-MD5']],
    ['PLAIN with the password', ['PLAIN', 'LOGIN'], { password: 'pa55' }, 'sent', ['PLAIN']],
    ['LOGIN when it is all the server offers', ['LOGIN'], { password: 'pa55' }, 'sent', ['LOGIN']],
    [
      'CRAM-MD5 past PLAIN when only a secret is set',
      ['PLAIN', 'CRAM-MD5'],
      { secret: 's3cret' },
      'sent',
      ['CRAM-MD5'],
    ],
    [
      'PLAIN first when both are set',
      ['PLAIN', 'CRAM-MD5'],
      { password: 'pa55', secret: 's3cret' },
      'sent',
      ['PLAIN'],
    ],
    [
      'no secret for the only mechanism',
      ['CRAM-MD5'],
      { password: 'pa55' },
      'missing secret for CRAM-MD5 auth mechanism',
      [],
    ],
    [
      'no password for the only mechanisms',
      ['PLAIN', 'LOGIN'],
      { secret: 's3cret' },
      'missing password for PLAIN auth mechanism; missing password for LOGIN auth mechanism',
      [],
    ],
    ['a wrong secret', ['CRAM-MD5'], { secret: 'wrong' }, '535', ['CRAM-MD5']],
  ] as const)('%s', async (_name, methods, credentials, outcome, used) => {
    const server = await smtpServer([...methods]);
    try {
      const result = await send(server.port, config(credentials));
      if (outcome === 'sent') expect(result).toBe('sent');
      else expect(result).toContain(outcome);
      expect(server.used).toEqual(used);
    } finally {
      await server.close();
    }
  });

  it('does no AUTH without a username', async () => {
    expect(await smtpAuth({} as EmailConfig)).toEqual({});
  });
});
