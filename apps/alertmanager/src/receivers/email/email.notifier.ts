import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Alert } from '../../alerts/alert.model';
import type { EmailConfig } from '../../config';
import { NotifyError, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { tlsOptions } from '../../http-client/tls-options';
import { notificationRenderers } from '../templating/notification-text';
import { buildEmailMessage } from './email-message';
import { addresses, buildMime } from './mime-message';
import { smtpAuth } from './smtp-auth';

function splitHostPort(smarthost: string): { host: string; port: number } {
  const at = smarthost.lastIndexOf(':');
  return {
    host: smarthost.slice(0, at).replace(/^\[|\]$/g, ''),
    port: Number(smarthost.slice(at + 1)),
  };
}

/** A readable reason from nodemailer's error, keeping the server's reply, never credentials. */
function describe(err: unknown, config: EmailConfig): { message: string } {
  const e = err as { code?: string; response?: string; message?: string };
  if (e.code === 'ETLS' && /STARTTLS/i.test(e.message ?? '') && config.require_tls) {
    return {
      message: `'require_tls' is true (default) but "${config.smarthost}" does not advertise the STARTTLS extension`,
    };
  }
  if (e.code === 'EAUTH') return { message: `auth: ${e.response ?? e.message ?? 'failed'}` };
  return { message: e.response ?? e.message ?? String(err) };
}

/**
 * Sends the notification by SMTP with nodemailer: implicit TLS on port 465 (or when forced),
 * otherwise STARTTLS, required unless `require_tls: false`; AUTH when `auth_username` is set
 * (`smtp-auth.ts`: PLAIN, LOGIN, CRAM-MD5; secrets read at each send); `BODY=8BITMIME` in MAIL
 * FROM when the server offers it. Delivery errors are retried, as upstream; template errors are
 * not.
 */
export class EmailNotifier implements Notifier {
  constructor(
    private readonly config: EmailConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {}

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const render = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const message = buildEmailMessage(this.config, render);
    const { config } = this;
    const { host, port } = splitHostPort(config.smarthost);
    const implicit = config.force_implicit_tls ?? port === 465;
    const tls = await tlsOptions(config.tls_config);
    const options: SMTPTransport.Options = {
      host,
      port,
      secure: implicit,
      requireTLS: !implicit && config.require_tls,
      ignoreTLS: !implicit && !config.require_tls,
      name: config.hello,
      tls: { ...tls, servername: tls.servername ?? host },
      logger: false,
      connectionTimeout: 30_000,
    };
    Object.assign(options, await smtpAuth(config));
    // nodemailer is loaded at the first email, not with the server (it adds to every start).
    const { createTransport } = await import('nodemailer');
    const transport = createTransport(options);
    const abort = () => transport.close();
    ctx.signal.addEventListener('abort', abort);
    try {
      await transport.sendMail({
        envelope: {
          from: addresses(message.from)[0] ?? '',
          to: addresses(message.to),
          // `MAIL FROM:<...> BODY=8BITMIME` when the server offers 8BITMIME, as Go's client.
          use8BitMime: true,
        },
        raw: buildMime(message, ctx.now),
      });
    } catch (err) {
      const reason = ctx.signal.aborted
        ? { message: String((ctx.signal.reason as Error).message) }
        : describe(err, config);
      throw new NotifyError(reason.message, true);
    } finally {
      ctx.signal.removeEventListener('abort', abort);
      transport.close();
    }
  }
}
