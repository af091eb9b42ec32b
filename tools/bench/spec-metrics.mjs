// Synthetic metrics of the specification's families (the ones its seventeen alert rules read):
// per instance, Redis command latency histograms, error and command counters, cache, lock, stream
// and rate-limit counters and gauges, HTTP requests and their latency histogram, `up` and node
// exporter CPU, memory and filesystem series. Values move as real ones do (counters by whole
// events, histogram buckets cumulative, gauges in small steps), from a seeded generator, so every
// run and every store sees the same data.

const BUCKETS = [
  '0.005',
  '0.01',
  '0.025',
  '0.05',
  '0.1',
  '0.25',
  '0.5',
  '1',
  '2.5',
  '5',
  '10',
  '+Inf',
];
const COMMANDS = [
  'GET',
  'SET',
  'DEL',
  'HGET',
  'HSET',
  'EXPIRE',
  'INCR',
  'XADD',
  'XREADGROUP',
  'EVALSHA',
];

/** A small deterministic generator (mulberry32). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Series definitions of one instance: labels and how a value moves per step. */
function instanceSeries(instance) {
  const out = [];
  const base = { instance, job: 'app' };
  const counter = (labels, rate) => out.push({ labels, kind: 'counter', rate });
  const gauge = (labels, level, spread) => out.push({ labels, kind: 'gauge', level, spread });
  const histogram = (name, extra, rate, scale) => {
    for (const le of BUCKETS) {
      const share = le === '+Inf' ? 1 : Math.min(1, Number(le) / scale);
      out.push({
        labels: { __name__: `${name}_bucket`, ...base, ...extra, le },
        kind: 'counter',
        rate: rate * share,
      });
    }
    out.push({
      labels: { __name__: `${name}_sum`, ...base, ...extra },
      kind: 'sum',
      rate: rate * scale * 0.3,
    });
    out.push({ labels: { __name__: `${name}_count`, ...base, ...extra }, kind: 'counter', rate });
  };
  for (const command of COMMANDS) {
    histogram('myapp_redis_command_duration_seconds', { command }, 40, 0.02);
    counter({ __name__: 'myapp_redis_errors_total', ...base, command }, 0.2);
    counter({ __name__: 'myapp_redis_commands_total', ...base, command }, 40);
  }
  for (const layer of ['l1', 'l2']) {
    counter({ __name__: 'myapp_redis_cache_hits_total', ...base, layer }, 80);
    counter({ __name__: 'myapp_redis_cache_misses_total', ...base, layer }, 20);
  }
  gauge({ __name__: 'myapp_redis_cache_size', ...base }, 30_000, 50);
  gauge({ __name__: 'myapp_redis_locks_active', ...base }, 20, 2);
  histogram('myapp_redis_lock_wait_duration_seconds', {}, 5, 0.2);
  for (const status of ['acquired', 'failed']) {
    counter(
      { __name__: 'myapp_redis_lock_acquisitions_total', ...base, status },
      status === 'failed' ? 0.5 : 5,
    );
  }
  for (const stream of ['orders', 'events', 'audit']) {
    for (const status of ['ok', 'error']) {
      counter(
        { __name__: 'myapp_redis_stream_messages_consumed_total', ...base, stream, status },
        status === 'error' ? 0.3 : 12,
      );
    }
    counter({ __name__: 'myapp_redis_stream_publish_errors_total', ...base, stream }, 0.05);
  }
  for (const status of ['allowed', 'rejected']) {
    counter(
      { __name__: 'myapp_redis_ratelimit_requests_total', ...base, status },
      status === 'rejected' ? 3 : 60,
    );
  }
  for (const status of ['200', '201', '404', '500', '503']) {
    counter({ __name__: 'http_requests_total', ...base, status }, status.startsWith('2') ? 50 : 1);
  }
  histogram('http_request_duration_seconds', {}, 100, 0.3);
  gauge({ __name__: 'up', instance, job: 'redis' }, 1, 0);
  const node = { instance, job: 'node' };
  for (let cpu = 0; cpu < 4; cpu++) {
    out.push({
      labels: { __name__: 'node_cpu_seconds_total', ...node, cpu: String(cpu), mode: 'idle' },
      kind: 'seconds',
      rate: 0.7,
    });
    out.push({
      labels: { __name__: 'node_cpu_seconds_total', ...node, cpu: String(cpu), mode: 'user' },
      kind: 'seconds',
      rate: 0.25,
    });
  }
  gauge({ __name__: 'node_memory_MemAvailable_bytes', ...node }, 6e9, 1e6);
  gauge({ __name__: 'node_memory_MemTotal_bytes', ...node }, 16e9, 0);
  for (const mountpoint of ['/', '/data']) {
    gauge({ __name__: 'node_filesystem_avail_bytes', ...node, mountpoint }, 40e9, 4096 * 10);
    gauge({ __name__: 'node_filesystem_size_bytes', ...node, mountpoint }, 100e9, 0);
  }
  return out;
}

/** `count` series across as many instances as they need. */
export function specSeries(count) {
  const all = [];
  for (let i = 0; all.length < count; i++)
    all.push(...instanceSeries(`app-${String(i).padStart(3, '0')}`));
  return all.slice(0, count);
}

/**
 * The samples of `series` step by step from `startMs`, generation resumable: each `next(emit)`
 * calls `emit(seriesIndex, timestampMs, value)` for every series at the next step, so a benchmark
 * can load a long span an hour at a time with the same values as one pass over it.
 */
export class SampleStream {
  constructor(series, startMs, stepMs) {
    this.series = series;
    this.stepMs = stepMs;
    this.t = startMs;
    this.random = random(42);
    this.state = series.map((s) => (s.kind === 'gauge' ? s.level : 0));
  }

  next(emit) {
    const { series, state, random: next } = this;
    const t = this.t;
    const seconds = this.stepMs / 1000;
    for (let i = 0; i < series.length; i++) {
      const s = series[i];
      switch (s.kind) {
        case 'counter':
          state[i] += Math.round(s.rate * seconds * (0.5 + next()));
          break;
        case 'sum':
          state[i] += Math.round(s.rate * seconds * (0.5 + next()) * 1000) / 1000;
          break;
        case 'seconds':
          state[i] = Math.round((state[i] + s.rate * seconds * (0.9 + 0.2 * next())) * 100) / 100;
          break;
        case 'gauge':
          if (s.spread > 0)
            state[i] = Math.max(0, state[i] + Math.round((next() - 0.5) * s.spread));
          break;
      }
      emit(i, t, state[i]);
    }
    this.t += this.stepMs;
  }
}

/**
 * Calls `emit(seriesIndex, timestampMs, value)` for every series at every step from `startMs`,
 * step by step (all series at one time, then the next), as scrapes would deliver them.
 */
export function generateSamples(series, startMs, steps, stepMs, emit) {
  const stream = new SampleStream(series, startMs, stepMs);
  for (let step = 0; step < steps; step++) stream.next(emit);
}
