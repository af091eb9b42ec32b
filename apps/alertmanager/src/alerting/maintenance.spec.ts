import { FakeScheduler } from '../time/testing/fake-scheduler';
import { StreamLogger } from '../logging/stream-logger';
import { Maintenance } from './maintenance';

describe('Maintenance', () => {
  it('runs each task at its interval and keeps going after a failure', async () => {
    const scheduler = new FakeScheduler(0);
    const runs: string[] = [];
    const lines: string[] = [];
    const maintenance = new Maintenance(
      [
        { name: 'gc', intervalMs: 1000, run: (now) => void runs.push(`gc@${now}`) },
        {
          name: 'flaky',
          intervalMs: 1500,
          run: (now) => {
            runs.push(`flaky@${now}`);
            throw new Error('disk full');
          },
        },
      ],
      scheduler,
      scheduler,
      new StreamLogger('info', 'logfmt', (l) => lines.push(l)),
    );
    maintenance.start();
    await scheduler.advance(3000);
    expect(runs).toEqual(['gc@1000', 'flaky@1500', 'gc@2000', 'flaky@3000', 'gc@3000']);
    expect(lines.filter((l) => l.includes('err="disk full"'))).toHaveLength(2);
    maintenance.stop();
    await scheduler.advance(5000);
    expect(runs).toHaveLength(5);
  });
});
