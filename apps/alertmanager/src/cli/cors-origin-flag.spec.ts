import { corsOriginPattern } from '../api/prometheus/cors';
import { alertmanagerCommand, serverOptionsFrom } from './alertmanager-flags';
import { parseCommandLine } from './flags/parse-command-line';
import { statusFlags } from './status-flags';

const parse = (...args: string[]) => parseCommandLine(alertmanagerCommand, args);

describe('--web.cors.origin', () => {
  it('lets every origin call by default, as Prometheus', () => {
    expect(serverOptionsFrom(parse()).corsOrigin).toBe('.*');
    expect(statusFlags(alertmanagerCommand, parse())['web.cors.origin']).toBe('.*');
  });

  it.each<[string, string, boolean]>([
    ['https?://grafana\\.example\\.com', 'https://grafana.example.com', true],
    ['https?://grafana\\.example\\.com', 'http://grafana.example.com', true],
    // Fully anchored: neither a longer origin nor a part of one.
    ['https?://grafana\\.example\\.com', 'https://grafana.example.com.evil', false],
    ['grafana', 'https://grafana.example.com', false],
    ['https://(a|b)\\.example', 'https://b.example', true],
    ['', 'https://a.example', false],
  ])('%s accepts %s: %s', (regex, origin, accepted) => {
    const parsed = parse(`--web.cors.origin=${regex}`);
    const pattern = corsOriginPattern(serverOptionsFrom(parsed).corsOrigin ?? '');
    expect(pattern.matches(origin)).toBe(accepted);
  });

  it.each([
    [
      '(',
      'could not compile CORS regex string "(": error parsing regexp: missing closing ): `^(?:()$`',
    ],
    [
      'a**',
      'could not compile CORS regex string "a**": error parsing regexp: invalid nested repetition operator: `**`',
    ],
  ])('refuses %s with the regex error', (regex, message) => {
    expect(() => serverOptionsFrom(parse(`--web.cors.origin=${regex}`))).toThrow(message);
  });
});
