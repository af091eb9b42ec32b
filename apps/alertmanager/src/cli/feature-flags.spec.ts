import { queryEngineSettings } from '../server/query-engine-options';
import { alertmanagerCommand, serverOptionsFrom } from './alertmanager-flags';
import { amtoolCommand } from './amtool-command';
import { enabledFeatures } from './feature-flags';
import { parseCommandLine } from './flags/parse-command-line';
import { renderUsage } from './flags/render-usage';

const server = (...args: string[]) => parseCommandLine(alertmanagerCommand, args);

// `--enable-feature` as Prometheus reads it: repeatable, each value a comma-separated list, and a
// name it does not know warned about (by the caller) and ignored.
describe('--enable-feature', () => {
  it.each([
    [[], false, []],
    [['--enable-feature=promql-delayed-name-removal'], true, []],
    [['--enable-feature', 'promql-delayed-name-removal'], true, []],
    [['--enable-feature=exemplar-storage,promql-delayed-name-removal'], true, ['exemplar-storage']],
    [
      ['--enable-feature=exemplar-storage', '--enable-feature=promql-delayed-name-removal'],
      true,
      ['exemplar-storage'],
    ],
    [['--enable-feature=promql-delayed-name-removals'], false, ['promql-delayed-name-removals']],
  ])('%j: delayed name removal %s, unknown %j', (args, delayed, unknown) => {
    const parsed = server(...args);
    expect(enabledFeatures(parsed)).toEqual({ promqlDelayedNameRemoval: delayed, unknown });
    const options = serverOptionsFrom(parsed);
    expect(options.promqlDelayedNameRemoval).toBe(delayed);
    // Every engine the server builds (API, query threads, rules) takes these settings.
    expect(queryEngineSettings(options).engine.delayedNameRemoval).toBe(delayed);
  });

  it('is listed in the usage with the feature it knows', () => {
    const usage = renderUsage('redisx-alertmanager', alertmanagerCommand, []);
    expect(usage).toContain('--enable-feature=');
    expect(usage).toContain(
      'Comma separated feature names to enable. Valid options: promql-delayed-name-removal.',
    );
  });

  it('is taken by `test rules`, as promtool', () => {
    const parsed = parseCommandLine(amtoolCommand, [
      'test',
      'rules',
      '--enable-feature=promql-delayed-name-removal',
      'tests.yml',
    ]);
    expect(parsed.command).toEqual(['test', 'rules']);
    expect(enabledFeatures(parsed).promqlDelayedNameRemoval).toBe(true);
  });
});
