import { hostname as osHostname } from 'node:os';
import { publicLabels, type ScrapePool } from '../../scrape';
import { formatDuration } from '../../time/duration';
import { formatRfc3339Nano } from '../../time/go-date-time';
import { GO_ZERO_TIME } from '../../time/go-zero-time';

import { globalUrl } from './global-url';
import { invalidParam } from './prometheus-reply';

/** Which targets `/api/v1/targets` lists, from its `state` parameter (`active`, `dropped`, `any`). */
export function targetStateFilter(state: string | null): { active: boolean; dropped: boolean } {
  const value = (state ?? '').toLowerCase();
  if (value !== '' && value !== 'active' && value !== 'dropped' && value !== 'any') {
    throw invalidParam('state', `not supported value ${JSON.stringify(state)}`);
  }
  return {
    active: value === '' || value === 'active' || value === 'any',
    dropped: value === '' || value === 'dropped' || value === 'any',
  };
}

/**
 * The `data` of `/api/v1/targets`, as Prometheus shows its scrape targets; `hostname` names this
 * machine in the `globalUrl` of a target on it.
 */
export function targetsView(
  pools: readonly ScrapePool[],
  filter: { active: boolean; dropped: boolean },
  hostname: () => string = osHostname,
): { activeTargets: unknown[]; droppedTargets: unknown[] } {
  const host = hostname();
  const activeTargets: unknown[] = [];
  const droppedTargets: unknown[] = [];
  for (const pool of pools) {
    if (filter.active) {
      for (const loop of pool.activeTargets) {
        const { status, target, config } = loop;
        activeTargets.push({
          discoveredLabels: target.discoveredLabels.toRecord(),
          labels: publicLabels(target.labels).toRecord(),
          scrapePool: pool.jobName,
          scrapeUrl: target.url,
          globalUrl: globalUrl(target.url, host),
          lastError: status.lastError,
          lastScrape: formatRfc3339Nano(status.lastScrape === 0 ? GO_ZERO_TIME : status.lastScrape),
          lastScrapeDuration: status.lastScrapeDurationMs / 1000,
          health: status.health,
          scrapeInterval: formatDuration(config.scrapeIntervalMs),
          scrapeTimeout: formatDuration(config.scrapeTimeoutMs),
        });
      }
    }
    if (filter.dropped) {
      for (const dropped of pool.droppedTargets) {
        droppedTargets.push({ discoveredLabels: dropped.discoveredLabels.toRecord() });
      }
    }
  }
  return { activeTargets, droppedTargets };
}
