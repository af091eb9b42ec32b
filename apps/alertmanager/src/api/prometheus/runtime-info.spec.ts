import {
  processNodeOptions,
  runtimeInfo,
  storageRetention,
  type RuntimeSources,
} from './runtime-info';

const DAY = 86_400_000;

describe('storageRetention', () => {
  it.each([
    [15 * DAY, 0, '15d'],
    [14 * DAY, 0, '2w'],
    [90 * 60_000, 0, '1h30m'],
    [Infinity, 2 ** 30, '1GiB'],
    [15 * DAY, 2 ** 30, '15d or 1GiB'],
    [Infinity, 0, ''],
  ])('words %d ms and %d bytes as %j, as Prometheus does', (timeMs, bytes, expected) => {
    expect(storageRetention(timeMs, bytes)).toBe(expected);
  });
});

describe('runtimeInfo', () => {
  const sources: RuntimeSources = {
    startedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
    cwd: '/srv',
    lastReload: () => ({ successful: false, successAt: Date.UTC(2026, 0, 2, 3, 5, 6, 999) }),
    corruptions: () => 1,
    threads: () => 3,
    cpus: 8,
    retention: { timeMs: 15 * DAY, bytes: 0 },
    nodeOptions: ['--enable-source-maps', '--max-old-space-size=4096', '--max_semi_space_size=64'],
    nodeDebug: 'http',
  };

  it("answers 2.42's fields in its order, the config time in whole seconds", () => {
    const info = runtimeInfo(sources);
    expect(Object.keys(info)).toEqual([
      'startTime',
      'CWD',
      'reloadConfigSuccess',
      'lastConfigTime',
      'corruptionCount',
      'goroutineCount',
      'GOMAXPROCS',
      'GOGC',
      'GODEBUG',
      'storageRetention',
    ]);
    expect(info).toEqual({
      startTime: '2026-01-02T03:04:05.678Z',
      CWD: '/srv',
      reloadConfigSuccess: false,
      lastConfigTime: '2026-01-02T03:05:06Z',
      corruptionCount: 1,
      goroutineCount: 3,
      GOMAXPROCS: 8,
      GOGC: '--max-old-space-size=4096 --max_semi_space_size=64',
      GODEBUG: 'http',
      storageRetention: '15d',
    });
  });

  it('reads the options of the command line, then NODE_OPTIONS', () => {
    expect(processNodeOptions(['--inspect'], ' --max-old-space-size=512  --trace-gc ')).toEqual([
      '--inspect',
      '--max-old-space-size=512',
      '--trace-gc',
    ]);
  });
});
