import { parentPort, receiveMessageOnPort } from 'node:worker_threads';
import { answerQuery } from '../api/prometheus/query-request';
import { PromqlEngine } from '../promql';
import { answerRuleQueryJob } from '../rules/rule-query-wire';
import { ParsedExpressions } from '../rules/rule-queries';
import { SeriesReplica } from '../tsdb/series-replica';
import type {
  FromQueryThread,
  QueryThreadData,
  SegmentMessage,
  ThreadJob,
  ToQueryThread,
} from './thread-messages';
import { warmUp } from './warm-up';

// A query thread: loads its code, then waits for its data (it may be started before the store it
// reads has loaded); keeps a replica of the store's index, runs one job at a time.
parentPort?.once('message', (message: ToQueryThread) => {
  if (message.kind !== 'start') throw new Error(`query thread: ${message.kind} before start`);
  serve(message.data);
});

function serve(data: QueryThreadData): void {
  const encoder = new TextEncoder();
  const replica: SeriesReplica = new SeriesReplica(data.memory, takeSegments);
  replica.apply(data.index);
  const ruleEngine = new PromqlEngine(replica, data.engine);
  const ruleExpressions = new ParsedExpressions();

  /** Adopts every segment sent so far (each is sent before any chunk in it is published). */
  function takeSegments(): void {
    for (let m = receiveMessageOnPort(data.segments); m; m = receiveMessageOnPort(data.segments)) {
      const segment = m.message as SegmentMessage;
      replica.adoptSegment(segment.id, segment.buffer);
    }
  }

  /** The job's answer, and the buffers that move with it rather than being copied. */
  function run(job: ThreadJob): { reply: unknown; transfer: ArrayBuffer[] } {
    switch (job.kind) {
      case 'api': {
        const { status, body } = answerQuery(replica, job.request, data.engine);
        // The body's bytes move to the main thread: it sends them without making a string of them.
        const bytes = typeof body === 'string' ? encoder.encode(body) : body;
        return { reply: { status, body: bytes }, transfer: [bytes.buffer as ArrayBuffer] };
      }
      case 'rules':
        return {
          reply: answerRuleQueryJob(replica, ruleEngine, ruleExpressions, job.job),
          transfer: [],
        };
      case 'warm-up':
        warmUp(replica, data.engine, job.nowMs);
        return { reply: null, transfer: [] };
    }
  }

  parentPort?.on('message', (message: ToQueryThread) => {
    if (message.kind === 'start') return;
    if (message.kind === 'index') {
      replica.apply(message.changes);
      return;
    }
    takeSegments();
    replica.refresh();
    // Rules read the same windows again at every evaluation: the series they read get rings.
    // Other jobs' reads (a dashboard's, an ad-hoc query over every series, the warm-up) do not.
    replica.recordRingless(message.job.kind === 'rules');
    const { reply, transfer } = run(message.job);
    replica.release();
    const ringless = replica.takeRingless();
    const answer: FromQueryThread = { kind: 'reply', id: message.id, reply, ringless };
    if (ringless !== undefined) transfer.push(ringless.buffer as ArrayBuffer);
    parentPort?.postMessage(answer, transfer);
  });
}
