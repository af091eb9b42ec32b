import { alertmanagerCommand, serverOptionsFrom } from './alertmanager-flags';
import { parseCommandLine } from './flags/parse-command-line';

const DAY = 24 * 3_600_000;
const options = (...args: string[]) =>
  serverOptionsFrom(parseCommandLine(alertmanagerCommand, args));

// Prometheus's rules for its retention flags, side by side with `prometheus --help`.
describe('the metric store retention flags', () => {
  it.each([
    [[], 15 * DAY, 0],
    [['--storage.tsdb.retention.time=2d'], 2 * DAY, 0],
    [['--storage.tsdb.retention=3d'], 3 * DAY, 0],
    [['--storage.tsdb.retention=3d', '--storage.tsdb.retention.time=1w'], 7 * DAY, 0],
    [['--storage.tsdb.retention.size=512MB'], Infinity, 512 * 2 ** 20],
    [['--storage.tsdb.retention.size=1GB', '--storage.tsdb.retention.time=1y'], 365 * DAY, 2 ** 30],
    [['--storage.tsdb.retention.time=0'], 15 * DAY, 0],
  ])('%j keeps samples %d ms and %d bytes', (args, time, size) => {
    const parsed = options(...args);
    expect(parsed.tsdbRetentionTime).toBe(time);
    expect(parsed.tsdbRetentionSize).toBe(size);
  });

  it('keeps --data.retention for the notification log and silences alone', () => {
    const parsed = options('--data.retention=1h');
    expect(parsed.dataRetention).toBe(3_600_000);
    expect(parsed.tsdbRetentionTime).toBe(15 * DAY);
  });

  it.each([
    [['--storage.tsdb.retention.size=12XB'], 'units: unknown unit XB in 12XB'],
    [['--storage.tsdb.retention.time=abc'], 'not a valid duration string: "abc"'],
  ])('refuses %j: %s', (args, message) => {
    expect(() => options(...args)).toThrow(message);
  });
});
