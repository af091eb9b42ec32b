import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import type { Labels } from '../tsdb/labels';
import { RemoteWriteReceiver, type ReceiverAppender } from './remote-write-receiver';
import { encodeWriteRequest } from './write-request-codec';

/** A store whose commits are written when the test says so. */
function storageWritingOnDemand() {
  const appended: [string, number, number][] = [];
  let finishWrite!: (error?: Error) => void;
  const appender = (): ReceiverAppender => {
    const rows: [string, number, number][] = [];
    return {
      add: (labels: Labels, t: number, v: number) => rows.push([labels.toString(), t, v]),
      addStale: (labels: Labels, t: number) => rows.push([labels.toString(), t, NaN]),
      commit: () => {
        appended.push(...rows);
        const written = new Promise<void>((resolve, reject) => {
          finishWrite = (error) => (error === undefined ? resolve() : reject(error));
        });
        return { appended: rows.length, rejected: new Map(), written };
      },
    };
  };
  return { storage: { appender }, appended, finishWrite: (error?: Error) => finishWrite(error) };
}

const BODY = encodeWriteRequest({
  timeseries: [
    { labels: [{ name: '__name__', value: 'up' }], samples: [{ value: 1, timestamp: 15_000 }] },
  ],
});

describe('RemoteWriteReceiver', () => {
  it('answers once the samples are written, not when they are appended', async () => {
    const { storage, appended, finishWrite } = storageWritingOnDemand();
    const receiver = new RemoteWriteReceiver(storage, recordingLogger());
    let reply: unknown;
    const answered = receiver.write(BODY).then((r) => (reply = r));
    await new Promise((resolve) => setImmediate(resolve));
    expect(appended).toEqual([['{__name__="up"}', 15_000, 1]]);
    expect(reply).toBeUndefined();
    finishWrite();
    await answered;
    expect(reply).toEqual({ status: 204 });
  });

  it('answers 500 when the samples cannot be written, so that the sender retries', async () => {
    const { storage, finishWrite } = storageWritingOnDemand();
    const lines: LoggedLine[] = [];
    const receiver = new RemoteWriteReceiver(storage, recordingLogger(lines));
    const answered = receiver.write(BODY);
    finishWrite(new Error('ENOSPC: no space left on device, write'));
    expect(await answered).toEqual({
      status: 500,
      message: 'ENOSPC: no space left on device, write',
    });
    expect(lines).toEqual([
      {
        level: 'error',
        msg: 'Error appending remote write',
        fields: { err: 'ENOSPC: no space left on device, write' },
      },
    ]);
  });
});
