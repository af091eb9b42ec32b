import { StreamLogger } from './stream-logger';
import type { LogFormat, LogLevel } from './logger';

const at = Date.parse('2026-11-21T04:20:54.123Z');

function capture(level: LogLevel, format: LogFormat) {
  const lines: string[] = [];
  return {
    lines,
    logger: new StreamLogger(
      level,
      format,
      (l) => lines.push(l),
      {},
      () => at,
    ),
  };
}

describe('StreamLogger', () => {
  it.each([
    ['plain', { file: 'a.yml' }, 'ts=2026-11-21T04:20:54.123Z level=info msg=plain file=a.yml'],
    [
      'Loading configuration file',
      { file: '/etc/a b.yml' },
      'ts=2026-11-21T04:20:54.123Z level=info msg="Loading configuration file" file="/etc/a b.yml"',
    ],
    ['x', { err: 'a="b"' }, 'ts=2026-11-21T04:20:54.123Z level=info msg=x err="a=\\"b\\""'],
    [
      'x',
      { empty: '', skipped: undefined, n: 3 },
      'ts=2026-11-21T04:20:54.123Z level=info msg=x empty="" n=3',
    ],
  ])('logfmt %s %j', (msg, fields, expected) => {
    const { lines, logger } = capture('info', 'logfmt');
    logger.info(msg, fields);
    expect(lines).toEqual([expected]);
  });

  it('writes JSON with ts, level and msg first', () => {
    const { lines, logger } = capture('debug', 'json');
    logger.with({ component: 'api' }).warn('slow', { ms: 12 });
    expect(lines).toEqual([
      '{"ts":"2026-11-21T04:20:54.123Z","level":"warn","msg":"slow","component":"api","ms":12}',
    ]);
  });

  it.each([
    ['debug', 4],
    ['info', 3],
    ['warn', 2],
    ['error', 1],
  ] as const)('at level %s keeps %i of 4 lines', (level, count) => {
    const { lines, logger } = capture(level, 'logfmt');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines).toHaveLength(count);
  });
});
