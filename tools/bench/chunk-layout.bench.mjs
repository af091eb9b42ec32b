// Why closed chunks are keyed by sequence number in the chunk database: 10,000 series x 24 hourly
// chunks of 312 bytes (a day at 15 s), written one transaction per hour as checkpoints write them,
// keyed per series and time or per sequence number. Prints the bytes the process wrote (from
// /proc/self/io), the file's size and the time per hour's transaction; then reads every chunk
// back series by series through LMDB and through one `fs.readSync` per chunk from plain files.
// `SERIES` and `HOURS` change the size.
import {
  closeSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, median, requireFromRepo } from './bench-support.mjs';

const { open } = requireFromRepo('lmdb');
const SERIES = Number(process.env.SERIES ?? 10_000);
const HOURS = Number(process.env.HOURS ?? 24);
const LENGTH = 312;
const chunk = Buffer.alloc(LENGTH, 7);
const written = () => Number(/write_bytes: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))[1]);
const work = mkdtempSync(join(tmpdir(), 'bench-chunk-layout-'));

try {
  console.log(
    `${SERIES} series x ${HOURS} chunks of ${LENGTH} bytes = ${fmt((SERIES * HOURS * LENGTH) / 1e6, 0)} MB`,
  );
  for (const layout of ['per series and time', 'per sequence number']) {
    const path = join(work, layout.replace(/ /g, '-'));
    const db = open({ path, compression: false, keyEncoding: 'binary', encoding: 'binary' });
    const keyOf = (series, hour) => {
      const key = Buffer.alloc(12);
      if (layout === 'per series and time') {
        key.writeUInt32BE(series, 0);
        key.writeDoubleBE(1.7e12 + hour * 3.6e6, 4);
      } else key.writeUInt32BE(hour * SERIES + series, 0);
      return key;
    };
    const before = written();
    const times = [];
    for (let hour = 0; hour < HOURS; hour++) {
      const t0 = performance.now();
      await db.transaction(() => {
        for (let s = 0; s < SERIES; s++) db.put(keyOf(s, hour), chunk);
      });
      times.push(performance.now() - t0);
    }
    await db.flushed;
    const bytes = written() - before;
    const t0 = performance.now();
    let sum = 0;
    for (let s = 0; s < SERIES; s++) {
      for (let hour = 0; hour < HOURS; hour++) sum += db.getBinaryFast(keyOf(s, hour))[5];
    }
    const readMs = performance.now() - t0;
    console.log(
      `keyed ${layout}: wrote ${fmt(bytes / 1e6, 0)} MB (x${fmt(bytes / (SERIES * HOURS * LENGTH), 2)}), file ${fmt(statSync(join(path, 'data.mdb')).size / 1e6, 0)} MB, ${fmt(median(times), 0)} ms per hour's transaction, every chunk read back in ${fmt(readMs, 0)} ms${sum > 0 ? '' : '!'}`,
    );
    await db.close();
  }
  // The same chunks in files of our own, in the order they close, read with one call per chunk.
  const files = [];
  for (let hour = 0; hour < HOURS; hour++) {
    const file = join(work, `hour-${hour}`);
    writeFileSync(file, Buffer.concat(Array.from({ length: SERIES }, () => chunk)));
    files.push(openSync(file, 'r'));
  }
  const out = Buffer.alloc(LENGTH);
  const t0 = performance.now();
  for (let s = 0; s < SERIES; s++) {
    for (let hour = 0; hour < HOURS; hour++) readSync(files[hour], out, 0, LENGTH, s * LENGTH);
  }
  console.log(
    `plain files: every chunk read back with fs.readSync in ${fmt(performance.now() - t0, 0)} ms`,
  );
  files.forEach(closeSync);
} finally {
  rmSync(work, { recursive: true, force: true });
}
