export { parseRuleFile } from './rule-file';
export type { AlertingRule, RecordingRule, Rule, RuleFileResult, RuleGroup } from './rule-file';
export { duplicateRules, type DuplicateRule } from './duplicate-rules';
export {
  PROMETHEUS_TEMPLATE_FUNCTIONS,
  RULE_TEMPLATE_FUNCTIONS,
  templateParseProblem,
} from './rule-templates';
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
export {
  expandRuleTemplate,
  type RuleTemplateContext,
  type RuleTemplateData,
} from './rule-templates';
export {
  EXEMPLARS_DEFAULT_RANGE_MS,
  selectRuleExemplars,
  TRACE_ID_PLACEHOLDER,
  traceLink,
  type RuleExemplarReader,
  type RuleTemplateExemplar,
} from './rule-exemplars';
export { GroupEvaluator } from './group-evaluator';
export type {
  GroupEvaluation,
  RuleAlertNotification,
  RuleEnvironment,
  RuleHealth,
  RuleStatus,
} from './group-evaluator';
export { firstSlotAfter, groupOffsetNs, nextSlot, slotAtOrBefore } from './evaluation-slots';
export {
  runRuleTestFile,
  type RuleTestOptions,
  type RuleTestResult,
} from './unit-test/run-rule-tests';
export { parseRuleTestFile, TestFileError, type RuleTestFile } from './unit-test/test-file';
export { RuleManager, type RuleManagerDeps, type RuleSettings } from './rule-manager';
export { RuleGroupRunner } from './rule-group-runner';
export { RuleMetrics } from './rule-metrics';
export { RuleLoadError, loadRuleGroups, type LoadedGroup } from './load-rule-groups';
export {
  RESTORE_DEFAULTS,
  forStateSeries,
  restoreForState,
  type RestoreSettings,
} from './restore-for-state';
export {
  InProcessRuleQueries,
  ruleSamplesOf,
  type LastSample,
  type RuleQueries,
  type RuleSample,
} from './rule-queries';
export type { SampleAppender } from './group-evaluator';
export { RemoteDatasource } from './remote-datasource';
export type { RemoteQueries } from './group-evaluator';
