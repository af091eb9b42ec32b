import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { SeriesReplica } from '../../../tsdb/series-replica';
import { answerQuery } from '../query-request';
import type {
  FromQueryWorker,
  QueryWorkerData,
  SegmentMessage,
  ToQueryWorker,
} from './query-messages';

// A query thread: keeps a replica of the store's index, answers one request at a time.
const data = workerData as QueryWorkerData;
const encoder = new TextEncoder();
const replica: SeriesReplica = new SeriesReplica(data.memory, takeSegments);
replica.apply(data.index);

/** Adopts every segment sent so far (each is sent before any chunk in it is published). */
function takeSegments(): void {
  for (let m = receiveMessageOnPort(data.segments); m; m = receiveMessageOnPort(data.segments)) {
    const segment = m.message as SegmentMessage;
    replica.adoptSegment(segment.id, segment.buffer);
  }
}

parentPort?.on('message', (message: ToQueryWorker) => {
  if (message.kind === 'index') {
    replica.apply(message.changes);
    return;
  }
  takeSegments();
  replica.refresh();
  const { status, body } = answerQuery(replica, message.request, data.engine);
  replica.release();
  // The body's bytes move to the main thread: it sends them without making a string of them.
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const reply: FromQueryWorker = { kind: 'reply', id: message.id, reply: { status, body: bytes } };
  parentPort?.postMessage(reply, [bytes.buffer as ArrayBuffer]);
});
