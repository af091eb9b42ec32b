// `--web.trace-url` as the pages read it: from the server's flags, asked once per page load,
// since flags change only when the server restarts.
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';

let asked: Promise<string | undefined> | undefined;

/** The template, or undefined when the flag is unset or the flags cannot be read: no links then. */
function traceUrlTemplate(): Promise<string | undefined> {
  asked ??= api.flags().then(
    (flags) => flags['web.trace-url'] || undefined,
    () => undefined,
  );
  return asked;
}

/**
 * `--web.trace-url`'s template for the links from an exemplar to its trace; undefined until the
 * flags are read, and for good when it is not set.
 */
export function useTraceUrlTemplate(): string | undefined {
  const [template, setTemplate] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void traceUrlTemplate().then((value) => current && setTemplate(value));
    return () => {
      current = false;
    };
  }, []);
  return template;
}
