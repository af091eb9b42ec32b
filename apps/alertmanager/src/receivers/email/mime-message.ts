import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { EmailMessage } from './email-message';

/** RFC 2047 Q-encoding of a header value with non-ASCII characters, as Go's `mime.QEncoding`. */
export function encodeHeader(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  let encoded = '';
  for (const byte of Buffer.from(value)) {
    const c = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9!*+\-/]/.test(c)
      ? c
      : c === ' '
        ? '_'
        : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return `=?UTF-8?q?${encoded}?=`;
}

/** Quoted-printable body encoding (RFC 2045), lines of at most 76 characters. */
export function quotedPrintable(text: string): string {
  const lines = text.replace(/\r?\n/g, '\n').split('\n');
  return lines
    .map((line) => {
      let encoded = '';
      const bytes = Buffer.from(line);
      bytes.forEach((byte, i) => {
        const c = String.fromCharCode(byte);
        const last = i === bytes.length - 1;
        const plain =
          (byte >= 33 && byte <= 126 && c !== '=') || ((c === ' ' || c === '\t') && !last);
        encoded += plain ? c : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      });
      const out: string[] = [];
      while (encoded.length > 75) {
        let cut = 75;
        const escape = encoded.lastIndexOf('=', cut);
        if (escape > cut - 3) cut = escape;
        out.push(`${encoded.slice(0, cut)}=`);
        encoded = encoded.slice(cut);
      }
      out.push(encoded);
      return out.join('\r\n');
    })
    .join('\r\n');
}

/** Go's `time.RFC1123Z` in UTC, as upstream's `Date` header. */
function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const text = d.toUTCString().replace('GMT', '+0000');
  return text.replace(/ (\d) /, ' 0$1 ');
}

/**
 * The message as upstream builds it: headers (Subject Q-encoded when needed, `Date`,
 * `Message-Id`), then a `multipart/alternative` body with the text part first and the HTML
 * part, both quoted-printable UTF-8.
 */
export function buildMime(message: EmailMessage, now: number): string {
  const boundary = randomBytes(16).toString('hex');
  const headers: [string, string][] = [
    ['From', message.from],
    ['To', message.to],
    ['Subject', encodeHeader(message.subject)],
    ...Object.entries(message.headers).map(([k, v]): [string, string] => [k, encodeHeader(v)]),
    ['Message-Id', `<${now}.${randomBytes(8).readBigUInt64BE()}@${hostname()}>`],
    ['Date', rfc1123z(now)],
    ['Content-Type', `multipart/alternative;  boundary=${boundary}`],
    ['MIME-Version', '1.0'],
  ];
  const lines = headers.map(([k, v]) => `${k}: ${v}`);
  const part = (type: string, body: string) => [
    `--${boundary}`,
    'Content-Transfer-Encoding: quoted-printable',
    `Content-Type: ${type}; charset=UTF-8`,
    '',
    quotedPrintable(body),
  ];
  const body = [
    ...(message.text !== undefined ? part('text/plain', message.text) : []),
    ...(message.html !== undefined ? part('text/html', message.html) : []),
    `--${boundary}--`,
    '',
  ];
  return [...lines, '', ...body].join('\r\n');
}

/** The addresses of a comma-separated list (`a@x, Name <b@y>`), for the SMTP envelope. */
export function addresses(list: string): string[] {
  return list
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
    .map((a) => /<([^>]+)>/.exec(a)?.[1] ?? a);
}
