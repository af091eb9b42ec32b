import { join } from 'node:path';
import { parseMail } from './mime-message';
import type { SmtpTestServer } from './smtp-test-server';
import type { WebhookCollector } from './webhook-collector';

/** Where upstream's recorded notifications are kept (see `receivers.compat.spec.ts`). */
export const RECORDING_FILE = join(__dirname, '..', 'testdata', 'upstream-notifications.json');

/** A recorded mail: what both servers must agree on, and the HTML part (ours differs). */
export interface RecordedMail {
  comparable: {
    from: string;
    to: string[];
    subject: string;
    headers: Record<string, string>;
    contentType: string;
    text?: string;
  };
  html?: string;
}

/** The requests of one run of the scenario: JSON bodies by path prefix (firing, then resolved). */
export interface Recording {
  http: Record<string, unknown[]>;
  mails: RecordedMail[];
}

/** Headers whose values differ on every send. */
const VOLATILE = new Set([
  'date',
  'message-id',
  'content-type',
  'mime-version',
  'subject',
  'x-mailer',
  'content-transfer-encoding',
]);

/** Turns what the loopback receivers got into a {@link Recording}. */
export function recordingOf(
  http: WebhookCollector,
  smtp: SmtpTestServer,
  paths: readonly string[],
): Recording {
  const bodies: Record<string, unknown[]> = {};
  for (const prefix of paths) {
    bodies[prefix] = http.deliveries
      .filter((d) => d.path === prefix || d.path.startsWith(`${prefix}/`))
      .slice(0, 2)
      .map((d) => d.body);
  }
  const mails = smtp.mails
    .map((m) => {
      const parsed = parseMail(m.raw);
      const headers = Object.fromEntries(
        Object.entries(parsed.headers).filter(([k]) => !VOLATILE.has(k)),
      );
      return {
        comparable: {
          from: m.from,
          to: m.to,
          subject: parsed.headers['subject'] ?? '',
          headers,
          contentType: (parsed.headers['content-type'] ?? '').split(';')[0],
          text: parsed.parts['text/plain']?.replace(/\r\n/g, '\n'),
        },
        html: parsed.parts['text/html']?.replace(/\r\n/g, '\n'),
      };
    })
    .sort((a, b) =>
      (a.comparable.subject + (a.comparable.text ?? '')).localeCompare(
        b.comparable.subject + (b.comparable.text ?? ''),
      ),
    );
  return { http: bodies, mails };
}
