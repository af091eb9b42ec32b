import { recordingLogger, type LoggedLine } from '../logging/testing/recording-logger';
import type { Labels } from '../tsdb/labels';
import { RemoteWriteReceiver, type ReceiverAppender } from './remote-write-receiver';
import { STALE_NAN } from './staleness';
import { WriteDecoder } from './write-decoder';
import { encodeWriteRequest, type WireTimeSeries } from './write-request-codec';

/** A store whose commits are written when the test says so. */
function storageWritingOnDemand() {
  const appended: [string, number, number][] = [];
  let finishWrite: ((error?: Error) => void) | undefined;
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
  return { storage: { appender }, appended, finishWrite: (error?: Error) => finishWrite?.(error) };
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
    await new Promise((resolve) => setImmediate(resolve));
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

  const series = (name: string, extra: Record<string, string>, samples: [number, number][]) => ({
    labels: [
      { name: '__name__', value: name },
      ...Object.entries(extra).map(([n, value]) => ({ name: n, value })),
    ],
    samples: samples.map(([timestamp, value]) => ({ timestamp, value })),
  });
  const many = Array.from({ length: 2_500 }, (_, i) =>
    series('work_total', { i: `${i}`, zone: i % 2 ? 'b' : 'a' }, [[15_000, i]]),
  );

  it.each<[string, WireTimeSeries[]]>([
    [
      'a few series',
      [
        {
          // Written as fields: a plain array of numbers would lose the marker's NaN bits.
          labels: [
            { name: '__name__', value: 'up' },
            { name: 'job', value: 'a' },
          ],
          samples: [
            { timestamp: 15_000, value: 1 },
            { timestamp: 30_000, value: STALE_NAN },
          ],
        },
        series('up', { job: 'b', empty: '' }, [[15_000, 0]]),
      ],
    ],
    ['more samples than one slice', many],
    [
      'a label name twice',
      [
        series('up', {}, [[1, 1]]),
        {
          labels: [
            { name: 'a', value: '1' },
            { name: 'a', value: '2' },
          ],
          samples: [],
        },
      ],
    ],
    [
      'no labels but empty ones',
      [{ labels: [{ name: 'a', value: '' }], samples: [{ timestamp: 1, value: 1 }] }],
    ],
    ['a native histogram', [{ ...series('h', {}, []), histograms: [new Uint8Array([8, 1])] }]],
  ])('appends or refuses %s alike on its decoding thread and at once', async (name, timeseries) => {
    const body = encodeWriteRequest({ timeseries });
    const outcome = async (decoder: WriteDecoder) => {
      const appended: [string, number, number][] = [];
      let commits = 0;
      const storage = {
        appender: (): ReceiverAppender => {
          const rows: [string, number, number][] = [];
          return {
            add: (labels: Labels, t: number, v: number) => rows.push([labels.toString(), t, v]),
            addStale: (labels: Labels, t: number) => rows.push([labels.toString(), t, -1]),
            commit: () => {
              commits++;
              appended.push(...rows);
              return { appended: rows.length, rejected: new Map(), written: Promise.resolve() };
            },
          };
        },
      };
      const receiver = new RemoteWriteReceiver(storage, recordingLogger(), decoder);
      const reply = await receiver.write(body);
      await receiver.close();
      return { reply, appended, commits };
    };
    const atOnce = await outcome(new WriteDecoder());
    const onThread = await outcome(new WriteDecoder(0));
    expect(onThread).toEqual(atOnce);
    if (name === 'a few series') {
      // The staleness marker is one, the empty label is dropped.
      expect(atOnce.appended).toEqual([
        ['{__name__="up", job="a"}', 15_000, 1],
        ['{__name__="up", job="a"}', 30_000, -1],
        ['{__name__="up", job="b"}', 15_000, 0],
      ]);
    }
    if (timeseries === many) {
      expect(atOnce.reply).toEqual({ status: 204 });
      expect(atOnce.appended).toHaveLength(2_500);
      expect(atOnce.commits).toBe(2);
    }
  });
});
