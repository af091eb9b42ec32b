import type { LastSample, RuleQueries, RuleSample } from '../rules/rule-queries';
import {
  flatLabels,
  ruleSamplesOfWire,
  type RuleQueryJob,
  type RuleQueryReply,
} from '../rules/rule-query-wire';
import type { Labels } from '../tsdb/labels';
import type { QueryThreadPool, ThreadOutcome } from './query-thread-pool';

/** Why a rule's query has no answer, in the words of upstream's engine where it has them. */
const FAILURES: Record<Extract<ThreadOutcome, { kind: 'failed' }>['reason'], string> = {
  queued: 'query timed out in query queue',
  stuck: 'query timed out in expression evaluation',
  closed: 'shutting down',
  exited: 'query thread exited',
};

/**
 * Rule evaluation's reads on the rules' own query threads: expressions (rules' and templates'
 * `query`) and the `for` state's last samples, each call within `--query.timeout`.
 */
export class RuleQueryThreads implements RuleQueries {
  constructor(
    private readonly pool: QueryThreadPool,
    private readonly timeoutMs: number,
  ) {}

  async queryAll(exprs: readonly string[], timeMs: number): Promise<(RuleSample[] | Error)[]> {
    const reply = await this.ask({ kind: 'instant', exprs, timeMs });
    if (reply instanceof Error) return exprs.map(() => reply);
    return reply.kind === 'instant' ? ruleSamplesOfWire(reply.results) : [];
  }

  async lastSamples(
    series: readonly Labels[],
    mint: number,
    maxt: number,
  ): Promise<(LastSample | undefined)[]> {
    const reply = await this.ask({
      kind: 'last-samples',
      series: series.map(flatLabels),
      mint,
      maxt,
    });
    if (reply instanceof Error) throw reply;
    return reply.kind === 'last-samples' ? reply.samples.map((s) => s ?? undefined) : [];
  }

  /** Starts the rules' thread and has it run the common query paths once. */
  warmUp(nowMs: number): Promise<void> {
    return this.pool.warmUp(nowMs);
  }

  private async ask(job: RuleQueryJob): Promise<RuleQueryReply | Error> {
    const outcome = await this.pool.run({ kind: 'rules', job }, Date.now() + this.timeoutMs);
    return outcome.kind === 'answer'
      ? (outcome.reply as RuleQueryReply)
      : new Error(FAILURES[outcome.reason]);
  }
}
