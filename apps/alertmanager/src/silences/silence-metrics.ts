import { Gauge, type Registry } from 'prom-client';
import type { Clock } from '../time/clock';
import { silenceState, type Silence, type SilenceState } from './silence';

/** `alertmanager_silences{state}`: how many silences are active, pending and expired, per scrape. */
export function registerSilenceMetrics(
  registry: Registry,
  silences: { list(): Iterable<Silence> },
  clock: Clock,
): void {
  new Gauge({
    name: 'alertmanager_silences',
    help: 'How many silences by state.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const now = clock.now();
      const counts: Record<SilenceState, number> = { active: 0, pending: 0, expired: 0 };
      for (const silence of silences.list()) counts[silenceState(silence, now)]++;
      for (const [state, count] of Object.entries(counts)) this.set({ state }, count);
    },
  });
}
