import { alertmanagerCommand, serverOptionsFrom } from './alertmanager-flags';
import { parseCommandLine } from './flags/parse-command-line';
import { statusFlags } from './status-flags';

const parse = (...args: string[]) => parseCommandLine(alertmanagerCommand, args);

describe('--web.trace-url', () => {
  it.each([
    ['http://localhost:16686/trace/{{ .TraceID }}'],
    ['https://tempo.example/explore?traceId={{.TraceID}}&orgId=1'],
    ['http://127.0.0.1:9411/zipkin/traces/{{  .TraceID  }}'],
  ])('takes %s', (url) => {
    const parsed = parse(`--web.trace-url=${url}`);
    expect(serverOptionsFrom(parsed).traceUrl).toBe(url);
    // The web UI reads it among the flags of /api/v1/status/flags.
    expect(statusFlags(alertmanagerCommand, parsed)['web.trace-url']).toBe(url);
  });

  it('is unset by default', () => {
    expect(serverOptionsFrom(parse()).traceUrl).toBeUndefined();
    expect(statusFlags(alertmanagerCommand, parse())['web.trace-url']).toBe('');
  });

  it.each([
    [
      'http://localhost:16686/trace/',
      'invalid value "http://localhost:16686/trace/" for flag --web.trace-url: must contain {{ .TraceID }} where the trace id goes',
    ],
    [
      'http://j/trace/{{ .TraceId }}',
      'invalid value "http://j/trace/{{ .TraceId }}" for flag --web.trace-url: must contain {{ .TraceID }} where the trace id goes',
    ],
    [
      'http://j/{{ .SpanID }}/{{ .TraceID }}',
      'invalid value "http://j/{{ .SpanID }}/{{ .TraceID }}" for flag --web.trace-url: {{ .TraceID }} is the only placeholder it may contain',
    ],
    [
      'localhost:16686/trace/{{ .TraceID }}',
      'invalid value "localhost:16686/trace/{{ .TraceID }}" for flag --web.trace-url: scheme must be http or https',
    ],
    [
      '/trace/{{ .TraceID }}',
      'invalid value "/trace/{{ .TraceID }}" for flag --web.trace-url: not a URL',
    ],
    [
      'ftp://j/{{ .TraceID }}',
      'invalid value "ftp://j/{{ .TraceID }}" for flag --web.trace-url: scheme must be http or https',
    ],
  ])('refuses %s', (url, message) => {
    expect(() => serverOptionsFrom(parse(`--web.trace-url=${url}`))).toThrow(message);
  });
});
