import { readFile } from 'node:fs/promises';
import type { HttpConfig } from '../config';
import { FILE_ERRORS } from '../config/file-errors';

/**
 * A secret file's content, trimmed as Prometheus' common HTTP client trims it, or an Error in
 * its words: `<context>: unable to read file <path>: open <path>: <reason>`.
 */
export async function readSecretFile(path: string, context: string): Promise<string> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch (error) {
    throw new Error(`${context}: unable to read file ${path}: ${openError(path, error)}`);
  }
}

/** Go's `open <path>: <reason>` for a file that cannot be read. */
export function openError(path: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return `open ${path}: ${FILE_ERRORS[code] ?? (error as Error).message}`;
}

/**
 * The request headers an `http_config` adds: `http_headers`, then `Authorization` from
 * `basic_auth` or `authorization` (which also holds `bearer_token`). Files are read at each
 * request, as upstream does, so a rotated credential is used at once.
 */
export async function credentialHeaders(config: HttpConfig): Promise<Record<string, string[]>> {
  const headers: Record<string, string[]> = {};
  for (const [name, header] of Object.entries(config.http_headers)) {
    const files = await Promise.all(
      header.files.map((f) => readSecretFile(f, `unable to read header ${name}`)),
    );
    headers[name] = [...header.values, ...header.secrets.map((s) => s.reveal()), ...files];
  }
  const basic = config.basic_auth;
  if (basic) {
    const user = basic.username_file
      ? await readSecretFile(basic.username_file, 'unable to read basic auth username')
      : (basic.username ?? '');
    const password = basic.password_file
      ? await readSecretFile(basic.password_file, 'unable to read basic auth password')
      : (basic.password?.reveal() ?? '');
    headers.Authorization = [basicAuthorization(user, password)];
  } else if (config.authorization) {
    const { type, credentials, credentials_file } = config.authorization;
    const secret = credentials_file
      ? await readSecretFile(credentials_file, 'unable to read authorization credentials')
      : (credentials?.reveal() ?? '');
    headers.Authorization = [`${type} ${secret}`];
  }
  return headers;
}

/** `Basic <base64(user:password)>`. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
