// Pages are addressed by the URL's fragment (`#/silences/new?matchers=...`), so the server needs
// one route only and links survive a reload. The graph page is the exception: it lives at
// `graph?g0.expr=...` beside the page, where Prometheus's links (a rule alert's `generatorURL`)
// point, so the server serves the page there too.
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string;
  params: URLSearchParams;
}

/** Whether this document is the graph page; the other pages are fragments of the one at `./`. */
const ON_GRAPH_PAGE = /\/graph$/.test(window.location.pathname);

function currentLocation(): Location {
  if (ON_GRAPH_PAGE) return { path: '/graph', params: new URLSearchParams(window.location.search) };
  const hash = window.location.hash.replace(/^#/, '') || '/alerts';
  const q = hash.indexOf('?');
  return {
    path: q < 0 ? hash : hash.slice(0, q),
    params: new URLSearchParams(q < 0 ? '' : hash.slice(q + 1)),
  };
}

export function useLocation(): Location {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    const update = () => setLocation(currentLocation());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return location;
}

function searchOf(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * The address of a page with parameters: a fragment, or from the graph page the fragment of the
 * page beside it; the graph page itself by its relative path (both sit at the route prefix).
 */
export function href(path: string, params: Record<string, string | undefined> = {}): string {
  if (path === '/graph') return `graph${searchOf(params)}`;
  const fragment = `#${path}${searchOf(params)}`;
  return ON_GRAPH_PAGE ? `./${fragment}` : fragment;
}

export function navigate(path: string, params: Record<string, string | undefined> = {}): void {
  if (ON_GRAPH_PAGE || path === '/graph') window.location.assign(href(path, params));
  else window.location.hash = href(path, params);
}
