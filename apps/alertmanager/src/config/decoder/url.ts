import type { YamlValue } from './yaml-value';
import { SECRET_TOKEN } from '../model/secret';

/**
 * Validates an http(s) URL with upstream's texts: `unsupported scheme "" for URL`,
 * `missing host for URL`. Go lowercases the scheme, so `HTTPS://x` is accepted.
 */
export function urlProblem(text: string): string | undefined {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(text)?.[1].toLowerCase() ?? '';
  if (scheme !== 'http' && scheme !== 'https') return `unsupported scheme "${scheme}" for URL`;
  let host = '';
  try {
    host = new URL(text).host;
  } catch {
    if (/^[a-zA-Z]+:\/\/(\/|$)/.test(text)) return 'missing host for URL';
    return `parse ${JSON.stringify(text)}: invalid URL`;
  }
  return host === '' ? 'missing host for URL' : undefined;
}

/** Reads a URL field; empty stays empty. */
export function readUrl(value: YamlValue): string {
  const text = value.string();
  const problem = text === '' ? undefined : urlProblem(text);
  if (problem) value.fail(problem);
  return text;
}

/** Reads a secret URL: `<secret>` (from a re-serialised config) is accepted as is. */
export function readSecretUrl(value: YamlValue): string {
  return value.string() === SECRET_TOKEN ? SECRET_TOKEN : readUrl(value);
}

/** Whether text holds Go template syntax, which a webhook URL may use (0.31+). */
export function isTemplated(text: string): boolean {
  return text.includes('{{');
}

/** Reads a URL the way Prometheus common does for `proxy_url`: it must only parse. */
export function readUrlLoose(value: YamlValue): string | undefined {
  const text = value.string();
  if (text === '') return undefined;
  try {
    new URL(text);
  } catch {
    value.fail(`parse ${JSON.stringify(text)}: invalid URL`);
  }
  return text;
}
