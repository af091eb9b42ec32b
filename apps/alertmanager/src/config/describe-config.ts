import type { AlertmanagerConfig } from './model/config.model';

/**
 * The summary `amtool check-config` prints under `Found:`. A loaded config always has a global
 * section (defaults) and a route, so those two lines are always present.
 */
export function describeConfig(config: AlertmanagerConfig): string[] {
  return [
    ' - global config',
    ' - route',
    ` - ${config.inhibit_rules.length} inhibit rules`,
    ` - ${config.receivers.length} receivers`,
    ` - ${config.templates.length} templates`,
  ];
}
