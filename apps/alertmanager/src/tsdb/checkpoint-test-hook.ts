import type { Logger } from '../logging/logger';
import { CHECKPOINT_STAGES, type CheckpointHook, type CheckpointStage } from './checkpoint-stages';

/**
 * The environment variable of the checkpoint's test hook: a comma-separated list of
 * `pause:<stage>` (the checkpoint stops there for good and logs that it paused, so a test can
 * kill the process at that point) and `fail:<stage>` (that step fails with `EIO` each time it is
 * reached, as a failing disk would). For tests only; unset, nothing changes.
 */
export const CHECKPOINT_TEST_HOOK_ENV = 'REDISX_TEST_CHECKPOINT_HOOK';

/** The hook `env` asks for (see {@link CHECKPOINT_TEST_HOOK_ENV}), or undefined when it is unset. */
export function checkpointTestHook(
  env: NodeJS.ProcessEnv,
  logger: Logger,
): CheckpointHook | undefined {
  const value = env[CHECKPOINT_TEST_HOOK_ENV];
  if (value === undefined || value === '') return undefined;
  const actions = new Map<CheckpointStage, 'pause' | 'fail'>();
  for (const entry of value.split(',')) {
    const [action, stage] = entry.trim().split(':');
    if ((action !== 'pause' && action !== 'fail') || !isStage(stage)) {
      throw new Error(
        `${CHECKPOINT_TEST_HOOK_ENV}: ${JSON.stringify(entry)} is not pause:<stage> or fail:<stage> ` +
          `with a stage of ${CHECKPOINT_STAGES.join(', ')}`,
      );
    }
    actions.set(stage, action);
  }
  logger.warn('The checkpoint test hook is set', { hook: value });
  return (stage) => {
    const action = actions.get(stage);
    if (action === 'fail') {
      throw Object.assign(new Error(`EIO: i/o error (test hook at ${stage})`), { code: 'EIO' });
    }
    if (action === 'pause') {
      logger.warn('Test hook: the checkpoint paused', { stage });
      return new Promise<void>(() => undefined);
    }
  };
}

function isStage(stage: string | undefined): stage is CheckpointStage {
  return (CHECKPOINT_STAGES as readonly (string | undefined)[]).includes(stage);
}
