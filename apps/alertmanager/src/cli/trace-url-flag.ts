import { TRACE_ID_PLACEHOLDER, traceLink } from '../rules';
import { CommandLineError } from './flags/flag-spec';

/**
 * `--web.trace-url`: the address of a trace in a tracing UI (Jaeger, Tempo, Zipkin), with
 * `{{ .TraceID }}` where the trace id goes, for the web UI's links from an exemplar to its trace and rule templates' `.TraceURL`.
 * Checked whole, with a sample trace id in place, so that a typo shows at start-up rather than as
 * a broken link.
 */
export function traceUrlTemplate(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const invalid = (why: string) =>
    new CommandLineError(`invalid value "${text}" for flag --web.trace-url: ${why}`);
  if (text.match(TRACE_ID_PLACEHOLDER) === null) {
    throw invalid('must contain {{ .TraceID }} where the trace id goes');
  }
  const sample = traceLink(text, '0af7651916cd43dd8448eb211c80319c');
  if (sample.includes('{{') || sample.includes('}}')) {
    throw invalid('{{ .TraceID }} is the only placeholder it may contain');
  }
  if (!URL.canParse(sample)) throw invalid('not a URL');
  const { protocol } = new URL(sample);
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw invalid('scheme must be http or https');
  }
  return text;
}
