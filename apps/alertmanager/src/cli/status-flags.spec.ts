import { alertmanagerCommand } from './alertmanager-flags';
import { parseCommandLine } from './flags/parse-command-line';
import { statusFlags } from './status-flags';

const flagsOf = (argv: string[]) =>
  statusFlags(alertmanagerCommand, parseCommandLine(alertmanagerCommand, argv));

describe('statusFlags', () => {
  it.each([
    ['a default', [], 'config.file', 'alertmanager.yml'],
    ['a given value', ['--web.listen-address=:9999'], 'web.listen-address', ':9999'],
    ['an unset flag', [], 'web.external-url', ''],
    [
      'a boolean',
      ['--web.enable-remote-write-receiver'],
      'web.enable-remote-write-receiver',
      'true',
    ],
    ['an unset boolean', [], 'web.enable-remote-write-receiver', 'false'],
    ['a repeated flag', ['--cluster.peer=a:1', '--cluster.peer=b:2'], 'cluster.peer', 'a:1,b:2'],
    ['a Prometheus duration, normalised', ['--query.timeout=120s'], 'query.timeout', '2m'],
    ['an unset retention time', [], 'storage.tsdb.retention.time', '0s'],
    [
      'a retention time',
      ['--storage.tsdb.retention.time=360h'],
      'storage.tsdb.retention.time',
      '15d',
    ],
    ['an unset retention size', [], 'storage.tsdb.retention.size', '0B'],
    [
      'a retention size',
      ['--storage.tsdb.retention.size=1GB'],
      'storage.tsdb.retention.size',
      '1GiB',
    ],
    [
      'an Alertmanager duration, as given',
      ['--alerts.gc-interval=90s'],
      'alerts.gc-interval',
      '90s',
    ],
  ])('gives %s as Prometheus prints it', (_, argv, name, expected) => {
    expect(flagsOf(argv)[name]).toBe(expected);
  });

  it('has every flag of the server but --version', () => {
    const names = alertmanagerCommand.flags
      ?.map((flag) => flag.name)
      .filter((n) => n !== 'version');
    expect(Object.keys(flagsOf([])).sort()).toEqual(names?.sort());
  });
});
