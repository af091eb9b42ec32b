import { posix } from 'node:path';
import type { AlertmanagerTargetConfig } from '../config';
import { staticGroups } from '../scrape/target-groups';
import { Labels } from '../tsdb/labels';

/** One Alertmanager to send alerts to: where, and which of the file's settings apply. */
export interface AlertmanagerEndpoint {
  readonly url: string;
  readonly config: AlertmanagerTargetConfig;
}

/**
 * The Alertmanagers of an `alertmanagers` entry as upstream's `AlertmanagerFromGroup`: each
 * target with `__scheme__` and `__alerts_path__` (`<path_prefix>/api/<version>/alerts`), the
 * entry's `relabel_configs` applied (`relabel` returns undefined to drop one), then the URL from
 * the resulting labels. Targets of `file_sd_configs` are read from `fileGroups`.
 */
export function alertmanagerEndpoints(
  config: AlertmanagerTargetConfig,
  relabel: (labels: Labels) => Labels | undefined,
  fileTargets: readonly Labels[] = [],
): AlertmanagerEndpoint[] {
  const alertsPath = posix.join('/', config.pathPrefix, `/api/${config.apiVersion}/alerts`);
  const out: AlertmanagerEndpoint[] = [];
  const seen = new Set<string>();
  const discovered = [
    ...staticGroups(config.staticConfigs).flatMap((g) => g.targets),
    ...fileTargets,
  ];
  for (const target of discovered) {
    const labels = relabel(
      Labels.fromRecord({
        ...target.toRecord(),
        __scheme__: config.scheme,
        __alerts_path__: alertsPath,
      }),
    );
    if (labels === undefined) continue;
    const url = `${labels.get('__scheme__')}://${labels.get('__address__')}${labels.get('__alerts_path__')}`;
    if (seen.has(url)) continue;
    seen.add(url);
    out.push({ url, config });
  }
  return out;
}
