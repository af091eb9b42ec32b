/** Go's `url.QueryEscape`: spaces as `+`, everything but unreserved characters percent-encoded. */
export function queryEscape(text: string): string {
  return Array.from(Buffer.from(text, 'utf8'))
    .map((b) => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9\-_.~]/.test(c)) return c;
      if (c === ' ') return '+';
      return `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/**
 * The path of an alert's generator URL, as upstream links an alert to its expression's graph:
 * `/graph?g0.expr=<expression>&g0.tab=1`, the expression as upstream prints it back from its tree
 * (the rule's `query`).
 */
export function formatExprForLink(expr: string): string {
  return `/graph?g0.expr=${queryEscape(expr.trim())}&g0.tab=1`;
}
