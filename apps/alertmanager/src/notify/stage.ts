import type { Alert } from '../alerts/alert.model';
import type { NotifyContext } from './notify-context';

/** What a stage hands to the next one: possibly fewer alerts, possibly a richer context. */
export interface StageResult {
  ctx: NotifyContext;
  alerts: Alert[];
}

/**
 * One step of the notification pipeline. It returns the alerts that go on (an empty list ends
 * the pipeline successfully) and throws to fail the flush, as upstream's `Stage.Exec`.
 */
export interface Stage {
  exec(ctx: NotifyContext, alerts: Alert[]): Promise<StageResult>;
}

/** Runs stages one after the other; stops early when a stage leaves no alerts. */
export function sequence(stages: readonly Stage[]): Stage {
  return {
    async exec(ctx, alerts) {
      let result: StageResult = { ctx, alerts };
      for (const stage of stages) {
        result = await stage.exec(result.ctx, result.alerts);
        if (result.alerts.length === 0) break;
      }
      return result;
    },
  };
}

/** Thrown by {@link fanOut} when some branches failed; carries every branch's error. */
export class FanOutError extends AggregateError {}

/**
 * Runs stages concurrently on the same input, as upstream's `FanoutStage`: one failing branch
 * does not stop the others, but fails the whole stage once all have settled.
 */
export function fanOut(stages: readonly Stage[]): Stage {
  return {
    async exec(ctx, alerts) {
      const results = await Promise.allSettled(stages.map((s) => s.exec(ctx, alerts)));
      const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      if (errors.length > 0) {
        throw new FanOutError(errors, errors.map((e) => String(e?.message ?? e)).join('; '));
      }
      return { ctx, alerts: [] };
    },
  };
}

/** Picks the stage of the context's receiver, as upstream's `RoutingStage`. */
export function routeByReceiver(stages: ReadonlyMap<string, Stage>): Stage {
  return {
    exec(ctx, alerts) {
      const stage = stages.get(ctx.receiver);
      if (!stage) return Promise.reject(new Error(`stage for receiver missing: ${ctx.receiver}`));
      return stage.exec(ctx, alerts);
    },
  };
}
