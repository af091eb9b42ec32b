// Pages are addressed by the URL's fragment (`#/silences/new?matchers=...`), so the server needs
// one route only and links survive a reload.
import { useEffect, useState } from 'preact/hooks';

export interface Location {
  path: string;
  params: URLSearchParams;
}

function currentLocation(): Location {
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

/** The fragment of a page with parameters. */
export function href(path: string, params: Record<string, string | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) search.set(name, value);
  const text = search.toString();
  return `#${path}${text ? `?${text}` : ''}`;
}

export function navigate(path: string, params: Record<string, string | undefined> = {}): void {
  window.location.hash = href(path, params);
}
