/**
 * Upstream appends `/` to the path of the Opsgenie, VictorOps and WeChat API URLs when it is
 * missing, because each request path is added to it (`v2/alerts`, `<key>/<routing key>`).
 */
export function withTrailingSlash(url: string): string {
  const parsed = new URL(url);
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  return parsed.href;
}
