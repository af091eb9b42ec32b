import { useState } from 'preact/hooks';
import { useTraceUrlTemplate } from '../trace-url-flag';
import { ExpressionEditor } from './expression-editor';
import { GraphControls, TableControls } from './panel-controls';
import type { PanelOptions, PanelTab } from './panel-options';
import { usePanelQuery, type PanelAnswer } from './panel-query';
import { ResultChart } from './result-chart';
import { ResultTable } from './result-table';

const TABS: [PanelTab, string][] = [
  ['table', 'Table'],
  ['graph', 'Graph'],
];

/**
 * One expression and its answer: the editor and Execute, the query's error and warnings, and a
 * table (instant query) or graph (range query, with its exemplars if asked) tab with its settings. The expression joins the
 * panel's options (and so the URL) when it is executed, as in Prometheus.
 */
export function GraphPanel(props: {
  id: string;
  number: number;
  options: PanelOptions;
  onChange: (options: PanelOptions) => void;
  onRemove: () => void;
}) {
  const { id, options } = props;
  const [draft, setDraft] = useState(options.expr);
  const [run, setRun] = useState(0);
  const answer = usePanelQuery(options, run);
  const traceTemplate = useTraceUrlTemplate();
  const change = (changes: Partial<PanelOptions>) => props.onChange({ ...options, ...changes });
  const execute = () => {
    if (draft !== options.expr) change({ expr: draft });
    setRun((n) => n + 1);
  };
  const data = answer.tab === options.tab ? answer.data : undefined;
  return (
    <article class="card graph-panel" aria-label={`panel ${props.number}`} data-panel={id}>
      <div class="expression-row">
        <ExpressionEditor
          id={`${id}-expr`}
          label={`Expression of panel ${props.number}`}
          initialValue={options.expr}
          onChange={setDraft}
          onExecute={execute}
        />
        <button type="button" class="primary" onClick={execute} disabled={answer.loading}>
          {answer.loading ? 'Loading…' : 'Execute'}
        </button>
      </div>
      {answer.error && (
        <div class="query-error" role="alert">
          {answer.error}
        </div>
      )}
      {answer.warnings.length > 0 && (
        <ul class="query-warnings" aria-label="warnings">
          {answer.warnings.map((warning, i) => (
            <li key={i}>{warning}</li>
          ))}
        </ul>
      )}
      {answer.infos.length > 0 && (
        <ul class="query-infos" aria-label="notes">
          {answer.infos.map((info, i) => (
            <li key={i}>{info}</li>
          ))}
        </ul>
      )}
      <div class="panel-tabs">
        <div role="tablist" aria-label={`View of panel ${props.number}`}>
          {TABS.map(([tab, title]) => (
            <button
              type="button"
              role="tab"
              aria-selected={options.tab === tab}
              aria-controls={`${id}-view`}
              key={tab}
              onClick={() => change({ tab })}
            >
              {title}
            </button>
          ))}
        </div>
        <Stats answer={answer} />
      </div>
      <div id={`${id}-view`} role="tabpanel" class="panel-view">
        {options.tab === 'table' ? (
          <>
            <TableControls id={id} options={options} change={change} />
            <ResultTable data={data} />
          </>
        ) : (
          <>
            <GraphControls id={id} options={options} change={change} />
            {answer.exemplarsError && <p class="muted exemplars-note">{answer.exemplarsError}</p>}
            <ResultChart
              data={data}
              window={answer.tab === 'graph' ? answer.window : undefined}
              stacked={options.stacked}
              exemplars={answer.tab === 'graph' ? answer.exemplars : undefined}
              traceTemplate={traceTemplate}
            />
          </>
        )}
      </div>
      <div class="panel-footer">
        <button type="button" class="link" onClick={props.onRemove}>
          Remove panel
        </button>
      </div>
    </article>
  );
}

/** Load time, the graph's resolution and the series count, as Prometheus's panel has them. */
function Stats({ answer }: { answer: PanelAnswer }) {
  const { stats } = answer;
  if (!stats || answer.loading || answer.error) return null;
  return (
    <p class="muted panel-stats">
      Load time: {stats.loadMs}ms
      {answer.tab === 'graph' && ` · Resolution: ${stats.stepSeconds}s`} · Result series:{' '}
      {stats.series}
    </p>
  );
}
