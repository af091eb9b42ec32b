import type { Scheduler, TimerHandle } from '../time/scheduler';
import type { Logger } from '../logging/logger';
import type { Clock } from '../time/clock';

/** A task run every `intervalMs`, e.g. garbage collection or a snapshot. */
export interface PeriodicTask {
  name: string;
  intervalMs: number;
  run(now: number): Promise<void> | void;
}

/**
 * Runs periodic tasks on the scheduler. A task's failure is logged and the task runs again at
 * its next interval; a task never overlaps with itself.
 */
export class Maintenance {
  private readonly timers = new Map<string, TimerHandle>();
  private stopped = false;

  constructor(
    private readonly tasks: readonly PeriodicTask[],
    private readonly clock: Clock,
    private readonly scheduler: Scheduler,
    private readonly logger: Logger,
  ) {}

  start(): void {
    for (const task of this.tasks) this.schedule(task);
  }

  stop(): void {
    this.stopped = true;
    for (const handle of this.timers.values()) this.scheduler.clear(handle);
    this.timers.clear();
  }

  private schedule(task: PeriodicTask): void {
    if (this.stopped) return;
    const at = this.clock.now() + task.intervalMs;
    this.timers.set(
      task.name,
      this.scheduler.set(at, async () => {
        try {
          await task.run(this.clock.now());
        } catch (error) {
          this.logger.error('Maintenance task failed', {
            task: task.name,
            err: (error as Error).message,
          });
        }
        this.schedule(task);
      }),
    );
  }
}
