import { ConfigError } from './config-error';
import { parseConfig } from './parse-config';

describe('ConfigError', () => {
  it.each<[ConstructorParameters<typeof ConfigError>, string]>([
    [['bad', 'am.yml', 7, 'route.receiver'], 'am.yml:7: route.receiver: bad'],
    [['bad', 'am.yml', 7], 'am.yml:7: bad'],
    [['bad', 'am.yml', undefined, 'route'], 'am.yml: route: bad'],
    [['no route provided in config', 'am.yml'], 'am.yml: no route provided in config'],
    [['bad'], 'bad'],
  ])('formats %j', (args, message) => {
    const error = new ConfigError(...args);
    expect(error.message).toBe(message);
    expect([error.reason, error.file, error.line, error.path]).toEqual(
      args.concat([]).concat(Array(4 - args.length).fill(undefined)),
    );
  });

  it.each([
    ['route:\n  receiver: [a\n', "yaml: line 2: did not find expected ',' or ']'"],
    ['route:\n\treceiver: a\n', 'yaml: line 2: found character that cannot start any token'],
  ])('names the file of YAML syntax errors in %j, the line in the reason', (text, reason) => {
    expect(() => parseConfig(text, 'am.yml')).toThrow(ConfigError);
    try {
      parseConfig(text, 'am.yml');
    } catch (err) {
      expect((err as ConfigError).file).toBe('am.yml');
      expect((err as ConfigError).reason).toBe(reason);
      expect((err as ConfigError).message).toBe(`am.yml: ${reason}`);
    }
  });
});
