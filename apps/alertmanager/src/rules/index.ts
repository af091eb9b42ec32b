export { parseRuleFile } from './rule-file';
export type { AlertingRule, RecordingRule, Rule, RuleFileResult, RuleGroup } from './rule-file';
export { duplicateRules, type DuplicateRule } from './duplicate-rules';
export { PROMETHEUS_TEMPLATE_FUNCTIONS, templateParseProblem } from './rule-templates';
export {
  AlertingRuleState,
  RESOLVED_RETENTION_MS,
  RuleEvaluationError,
  type AlertingRuleSettings,
  type AlertState,
  type ExpandedSample,
  type OutgoingAlert,
  type RuleAlert,
  type RuleSeries,
} from './alerting-rule-state';
