/** Go's `url.Values.Encode`: keys sorted, `QueryEscape`d (space as `+`, only `-_.~` kept). */
export function goQueryString(params: Record<string, string>): string {
  const escape = (s: string) =>
    encodeURIComponent(s)
      .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
      .replace(/%20/g, '+');
  return Object.keys(params)
    .sort()
    .map((key) => `${escape(key)}=${escape(params[key])}`)
    .join('&');
}
