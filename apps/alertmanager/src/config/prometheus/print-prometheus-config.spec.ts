import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePrometheusConfig } from './load-prometheus-config';
import { printPrometheusConfig } from './print-prometheus-config';

const DIR = join(__dirname, 'testdata', 'print');

/** `<name>.yml` printed must read as `<name>.expected.yml`, Prometheus 2.42's own output for it. */
describe('printPrometheusConfig', () => {
  it.each(['several-fields', 'quoting-and-auth', 'storage-and-remote-write', 'scalar-styles'])(
    'prints %s.yml as Prometheus 2.42 does',
    (name) => {
      const file = join(DIR, `${name}.yml`);
      const config = parsePrometheusConfig(readFileSync(file, 'utf8'), file);
      const expected = readFileSync(join(DIR, `${name}.expected.yml`), 'utf8').replaceAll(
        '<dir>',
        DIR,
      );
      expect(printPrometheusConfig(config)).toBe(expected);
    },
  );

  it('prints the global defaults alone without a configuration, as for an empty file', () => {
    const expected =
      'global:\n  scrape_interval: 1m\n  scrape_timeout: 10s\n  evaluation_interval: 1m\n';
    expect(printPrometheusConfig()).toBe(expected);
    expect(printPrometheusConfig(parsePrometheusConfig('', '/etc/prometheus.yml'))).toBe(expected);
  });

  it('never prints a secret', () => {
    for (const name of ['several-fields', 'quoting-and-auth']) {
      const file = join(DIR, `${name}.yml`);
      const printed = printPrometheusConfig(
        parsePrometheusConfig(readFileSync(file, 'utf8'), file),
      );
      for (const secret of ['s3cret', 'b3arer-t0ken', 'topsecret', ':pw@', ':p@']) {
        expect(printed).not.toContain(secret);
      }
    }
  });
});
