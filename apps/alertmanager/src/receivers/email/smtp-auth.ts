import { createHmac } from 'node:crypto';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { EmailConfig } from '../../config';
import { readSecret } from '../../http-client/http-secrets';

/** What nodemailer hands a custom AUTH handler. */
interface AuthContext {
  /** The mechanisms the server offers, of PLAIN, LOGIN, CRAM-MD5 and XOAUTH2, in that order. */
  authMethods: string[];
  sendCommand(command: string): Promise<{ status: number; text: string; response: string }>;
  resolve(): void;
  reject(error: Error | string): void;
}

type AuthOptions = Pick<SMTPTransport.Options, 'auth' | 'customAuth'>;

/** The name our own AUTH handler is registered under; nodemailer calls it instead of its own. */
const METHOD = 'ALERTMANAGER';

/**
 * AUTH as upstream's email notifier does it, when `auth_username` is set and the server offers
 * AUTH: the first mechanism offered whose credential is configured, `PLAIN` (with
 * `auth_identity`) or `LOGIN` with the password, `CRAM-MD5` with `auth_secret`; when none can be
 * used, upstream's errors (`missing secret for CRAM-MD5 auth mechanism`, `unknown auth mechanism:
 * ...`). The mechanisms are tried in the order PLAIN, LOGIN, CRAM-MD5 where upstream follows the
 * server's order, which differs only for a server listing CRAM-MD5 first when both a password
 * and a secret are configured.
 */
export async function smtpAuth(config: EmailConfig): Promise<AuthOptions> {
  if (!config.auth_username) return {};
  const user = config.auth_username;
  const password = await readSecret(config.auth_password, config.auth_password_file);
  const secret = await readSecret(config.auth_secret, config.auth_secret_file);
  const identity = config.auth_identity ?? '';
  const mechanisms: Record<string, (ctx: AuthContext) => Promise<void> | void> = {
    PLAIN: async (ctx) => {
      const token = Buffer.from(`${identity}\0${user}\0${password}`).toString('base64');
      const reply = await ctx.sendCommand(`AUTH PLAIN ${token}`);
      return reply.status === 235 ? ctx.resolve() : ctx.reject(reply.response);
    },
    LOGIN: async (ctx) => {
      let reply = await ctx.sendCommand('AUTH LOGIN');
      if (reply.status !== 334) return ctx.reject(reply.response);
      reply = await ctx.sendCommand(Buffer.from(user).toString('base64'));
      if (reply.status !== 334) return ctx.reject(reply.response);
      reply = await ctx.sendCommand(Buffer.from(password).toString('base64'));
      return reply.status === 235 ? ctx.resolve() : ctx.reject(reply.response);
    },
    'CRAM-MD5': async (ctx) => {
      const challenge = await ctx.sendCommand('AUTH CRAM-MD5');
      if (challenge.status !== 334) return ctx.reject(challenge.response);
      const digest = createHmac('md5', secret)
        .update(Buffer.from(challenge.text.trim(), 'base64'))
        .digest('hex');
      const reply = await ctx.sendCommand(Buffer.from(`${user} ${digest}`).toString('base64'));
      return reply.status === 235 ? ctx.resolve() : ctx.reject(reply.response);
    },
  };
  const missing: Record<string, string | undefined> = {
    PLAIN: password === '' ? 'missing password for PLAIN auth mechanism' : undefined,
    LOGIN: password === '' ? 'missing password for LOGIN auth mechanism' : undefined,
    'CRAM-MD5': secret === '' ? 'missing secret for CRAM-MD5 auth mechanism' : undefined,
  };
  return {
    // nodemailer starts AUTH only with a credential; the mechanisms read their own.
    auth: { user, pass: password || secret || ' ', method: METHOD },
    customAuth: {
      [METHOD]: async (ctx: AuthContext) => {
        const errors: string[] = [];
        for (const name of ctx.authMethods) {
          const mechanism = mechanisms[name];
          if (mechanism === undefined) continue;
          const why = missing[name];
          if (why !== undefined) {
            errors.push(why);
            continue;
          }
          return mechanism(ctx);
        }
        ctx.reject(errors.join('; ') || `unknown auth mechanism: ${ctx.authMethods.join(' ')}`);
      },
    },
  } as AuthOptions;
}
