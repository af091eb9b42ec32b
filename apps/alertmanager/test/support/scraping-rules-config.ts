import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The files a server that scrapes one target and evaluates rules over it starts from. */
export interface ScrapingRulesConfig {
  /** `--config.file`: one receiver for every alert. */
  alertmanager: string;
  /** `--rules.config.file`: scrapes and evaluations every second, the rules beside it. */
  prometheus: string;
}

/**
 * Writes into `dir` an Alertmanager config with one receiver, `rules` (a rule file's YAML) and a
 * Prometheus config that scrapes `target` as `job` and evaluates the rules every second, so a
 * rule over the target fires within seconds.
 */
export async function writeScrapingRulesConfig(
  dir: string,
  job: string,
  target: string,
  rules: string,
): Promise<ScrapingRulesConfig> {
  const alertmanager = join(dir, 'am.yml');
  const prometheus = join(dir, 'prometheus.yml');
  await writeFile(alertmanager, 'route: {receiver: default}\nreceivers: [{name: default}]\n');
  await writeFile(join(dir, 'rules.yml'), rules);
  await writeFile(
    prometheus,
    `global: {scrape_interval: 1s, evaluation_interval: 1s}\nrule_files: [rules.yml]\n` +
      `scrape_configs:\n  - job_name: ${job}\n    static_configs: [{targets: ['${target}']}]\n`,
  );
  return { alertmanager, prometheus };
}
