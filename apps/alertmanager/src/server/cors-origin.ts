import { corsOriginPattern } from '../api/prometheus/cors';

/** Checks `--web.cors.origin` before the server starts; the regex's error when it has one. */
export function checkCorsOrigin(text: string): string {
  corsOriginPattern(text);
  return text;
}
