import { parentPort } from 'node:worker_threads';
import { receivedSamples, type ReceivedSamples, type RefusedWrite } from './received-samples';

/** A remote-write request to decode: its id and body. */
export interface DecodeRequest {
  readonly id: number;
  readonly body: Uint8Array;
}

/** The thread's answer: the samples or the refusal, or why decoding failed. */
export type DecodeReply =
  ReceivedSamples | RefusedWrite | { readonly kind: 'failed'; readonly message: string };

// A remote-write decoding thread: snappy and protobuf off the event loop, one body at a time;
// the samples' arrays move back to the main thread rather than being copied.
parentPort?.on('message', ({ id, body }: DecodeRequest) => {
  let reply: DecodeReply;
  try {
    reply = receivedSamples(body);
  } catch (error) {
    reply = { kind: 'failed', message: (error as Error).message };
  }
  const transfer =
    reply.kind === 'samples'
      ? [reply.labelCounts, reply.sampleCounts, reply.t, reply.v, reply.stale].map(
          (array) => array.buffer as ArrayBuffer,
        )
      : [];
  parentPort?.postMessage({ id, reply }, transfer);
});
