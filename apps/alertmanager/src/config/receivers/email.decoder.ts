import { atMostOne, copyPlain, readFilePath, readSecret } from '../decoder/decode-helpers';
import { canonicalHeaderKey } from '../decoder/header-key';
import { decodeTlsConfig } from '../decoder/tls-config.decoder';
import type { YamlValue } from '../decoder/yaml-value';
import { validateHostPort } from '../host-port';
import type { GlobalConfig } from '../model/global.model';
import type { EmailConfig, EmailThreading } from './email.model';
import { NOTIFIER_KEYS } from './receiver-context';

const KEYS = [
  ...NOTIFIER_KEYS,
  'to',
  'from',
  'hello',
  'smarthost',
  'auth_username',
  'auth_password',
  'auth_password_file',
  'auth_secret',
  'auth_secret_file',
  'auth_identity',
  'headers',
  'html',
  'text',
  'require_tls',
  'tls_config',
  'force_implicit_tls',
  'threading',
];

/**
 * Decodes an `email_configs` entry and fills in the SMTP settings it leaves to `global`.
 * Headers get canonical names, and `Subject`, `To` and `From` defaults, as upstream shows them.
 */
export function decodeEmail(value: YamlValue, global: GlobalConfig): EmailConfig {
  if (value.isNull) value.fail('missing email config');
  const r = value.object(KEYS);
  const to = r.string('to');
  if (to === '') value.fail('missing to address in email config');
  const headers: Record<string, string> = {};
  for (const [name, header] of r.get('headers').entries()) {
    const key = canonicalHeaderKey(name);
    if (key in headers) header.fail(`duplicate header ${JSON.stringify(key)} in email config`);
    headers[key] = header.string();
  }
  const threading = r.has('threading') ? decodeThreading(r.get('threading'), headers) : undefined;
  atMostOne(r, 'auth_password');
  atMostOne(r, 'auth_secret');
  const smarthost = validateHostPort(r.get('smarthost')) ?? global.smtp_smarthost;
  if (!smarthost) value.fail('no global SMTP smarthost set');
  const from = r.string('from') || global.smtp_from;
  if (!from) value.fail('no global SMTP from set');
  const ownPassword = r.has('auth_password') || r.has('auth_password_file');
  const ownSecret = r.has('auth_secret') || r.has('auth_secret_file');
  return {
    send_resolved: r.bool('send_resolved', false),
    to,
    from,
    hello: r.string('hello') || global.smtp_hello,
    smarthost,
    auth_username: r.optionalString('auth_username') ?? global.smtp_auth_username,
    auth_password: ownPassword ? readSecret(r, 'auth_password') : global.smtp_auth_password,
    auth_password_file: ownPassword
      ? readFilePath(r, 'auth_password_file')
      : global.smtp_auth_password_file,
    auth_secret: ownSecret ? readSecret(r, 'auth_secret') : global.smtp_auth_secret,
    auth_secret_file: ownSecret
      ? readFilePath(r, 'auth_secret_file')
      : global.smtp_auth_secret_file,
    auth_identity: r.optionalString('auth_identity') ?? global.smtp_auth_identity,
    headers: {
      Subject: '{{ template "email.default.subject" . }}',
      To: to,
      From: from,
      ...headers,
    },
    html: r.string('html', '{{ template "email.default.html" . }}'),
    text: r.optionalString('text'),
    require_tls: r.bool('require_tls', global.smtp_require_tls),
    tls_config: r.has('tls_config')
      ? decodeTlsConfig(r.get('tls_config'))
      : copyPlain(global.smtp_tls_config),
    force_implicit_tls: r.has('force_implicit_tls')
      ? r.bool('force_implicit_tls')
      : global.smtp_force_implicit_tls,
    threading,
  };
}

function decodeThreading(value: YamlValue, headers: Record<string, string>): EmailThreading {
  const r = value.object(['enabled', 'thread_by_date']);
  const threading: EmailThreading = { enabled: r.bool('enabled') };
  const byDate = r.string('thread_by_date');
  if (!threading.enabled)
    return byDate ? { ...threading, thread_by_date: byDate as 'none' } : threading;
  if ('References' in headers) {
    value.fail(
      'conflicting configuration: threading.enabled conflicts with custom References header',
    );
  }
  if ('In-Reply-To' in headers) {
    value.fail(
      'conflicting configuration: threading.enabled conflicts with custom In-Reply-To header',
    );
  }
  if (byDate !== 'none' && byDate !== 'daily') {
    value.fail("threading.thread_by_date must be either 'none' or 'daily'");
  }
  return { ...threading, thread_by_date: byDate };
}
