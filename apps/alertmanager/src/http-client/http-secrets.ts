import { readFile } from 'node:fs/promises';
import type { BasicAuth, HttpConfig, HttpHeader, Secret } from '../config';

/**
 * A secret given inline or as a `*_file` path (already absolute). Files are read at each send,
 * so a rotated credential is picked up without a reload; trailing whitespace is trimmed.
 */
export async function readSecret(value: Secret | undefined, file: string | undefined) {
  if (file) return (await readFile(file, 'utf8')).trim();
  return value?.reveal() ?? '';
}

async function basicAuthHeader(auth: BasicAuth): Promise<string> {
  const username = auth.username_file
    ? (await readFile(auth.username_file, 'utf8')).trim()
    : (auth.username ?? '');
  const password = await readSecret(auth.password, auth.password_file);
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

async function headerValues(header: HttpHeader): Promise<string[]> {
  const files = await Promise.all(header.files.map((f) => readFile(f, 'utf8')));
  return [
    ...header.values,
    ...header.secrets.map((s) => s.reveal()),
    ...files.map((f) => f.trim()),
  ];
}

/**
 * The request headers `http_config` adds: `http_headers`, then `Authorization` from
 * `basic_auth` or `authorization` (`bearer_token` was folded into it by the config loader).
 */
export async function configHeaders(config: HttpConfig): Promise<Record<string, string[]>> {
  const headers: Record<string, string[]> = {};
  for (const [name, header] of Object.entries(config.http_headers)) {
    headers[name] = await headerValues(header);
  }
  if (config.basic_auth) {
    headers.Authorization = [await basicAuthHeader(config.basic_auth)];
  } else if (config.authorization) {
    const { type, credentials, credentials_file } = config.authorization;
    headers.Authorization = [
      `${type || 'Bearer'} ${await readSecret(credentials, credentials_file)}`,
    ];
  }
  return headers;
}
