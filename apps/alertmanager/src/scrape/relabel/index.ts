export { decodeRelabelConfig, decodeRelabelConfigs } from './decode-relabel-config';
export { ExpandTemplate } from './expand-template';
export { relabel, relabeler } from './relabel';
export { RELABEL_ACTIONS, type RelabelAction } from './relabel-action';
export type { RelabelConfig, RelabelRuleSource } from './relabel-config';
export { RelabelConfigError } from './relabel-config-error';
export { RelabelRegexp } from './relabel-regexp';
