import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import { CHECKPOINT_TEST_HOOK_ENV, checkpointTestHook } from './checkpoint-test-hook';

describe('the checkpoint test hook', () => {
  it('is inert unless its variable is set', () => {
    expect(checkpointTestHook({}, recordingLogger())).toBeUndefined();
    expect(
      checkpointTestHook({ [CHECKPOINT_TEST_HOOK_ENV]: '' }, recordingLogger()),
    ).toBeUndefined();
  });

  it('pauses at one stage for good, saying so, and fails another with EIO', async () => {
    const lines: LoggedLine[] = [];
    const hook = checkpointTestHook(
      { [CHECKPOINT_TEST_HOOK_ENV]: 'pause:snapshot-written, fail:chunk-flush' },
      recordingLogger(lines),
    );
    if (hook === undefined) throw new Error('no hook');
    expect(hook('rolled')).toBeUndefined();
    expect(() => hook('chunk-flush')).toThrow(
      expect.objectContaining({
        code: 'EIO',
        message: 'EIO: i/o error (test hook at chunk-flush)',
      }),
    );
    const paused = hook('snapshot-written');
    const outcome = await Promise.race([
      Promise.resolve(paused).then(() => 'resumed'),
      new Promise((resolve) => setTimeout(() => resolve('still paused'), 20)),
    ]);
    expect(outcome).toBe('still paused');
    expect(lines.map((l) => [l.msg, l.fields])).toEqual([
      ['The checkpoint test hook is set', { hook: 'pause:snapshot-written, fail:chunk-flush' }],
      ['Test hook: the checkpoint paused', { stage: 'snapshot-written' }],
    ]);
  });

  it.each(['pause', 'stop:rolled', 'pause:renamed'])('refuses %j', (value) => {
    expect(() =>
      checkpointTestHook({ [CHECKPOINT_TEST_HOOK_ENV]: value }, recordingLogger()),
    ).toThrow(
      `${CHECKPOINT_TEST_HOOK_ENV}: ${JSON.stringify(value)} is not pause:<stage> or fail:<stage> with a stage of segment-open, rolled, chunk-flush, snapshot-written, segments-removal`,
    );
  });
});
