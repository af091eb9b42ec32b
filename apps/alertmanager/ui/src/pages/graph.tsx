import { useEffect, useRef, useState } from 'preact/hooks';
import { GraphPanel } from '../graph/graph-panel';
import { DEFAULT_PANEL, readPanels, writePanels, type PanelOptions } from '../graph/panel-options';

interface Panel {
  /** Stays with the panel while others are added and removed, so each keeps its own state. */
  key: number;
  options: PanelOptions;
}

/**
 * PromQL panels at `/graph`, set up by the URL's `g0.expr`, `g0.tab`, ... as Prometheus's graph
 * page is, which is where a rule alert's `generatorURL` points. Every change is written back to
 * the URL (replacing the history entry), so the address shares what is on the page.
 */
export function GraphPage({ search }: { search: string }) {
  const nextKey = useRef(0);
  const panel = (options: PanelOptions): Panel => ({ key: nextKey.current++, options });
  const [panels, setPanels] = useState<Panel[]>(() => {
    const read = readPanels(search);
    return (read.length > 0 ? read : [DEFAULT_PANEL]).map(panel);
  });
  useEffect(() => {
    const query = writePanels(panels.map((p) => p.options));
    if (window.location.search !== `?${query}`) {
      window.history.replaceState(window.history.state, '', `?${query}`);
    }
  }, [panels]);
  return (
    <section aria-labelledby="graph-title" class="graph-page">
      <h1 id="graph-title">Graph</h1>
      {panels.map((p, i) => (
        <GraphPanel
          key={p.key}
          id={`panel-${p.key}`}
          number={i + 1}
          options={p.options}
          onChange={(options) =>
            setPanels((all) => all.map((q) => (q.key === p.key ? { ...q, options } : q)))
          }
          onRemove={() => setPanels((all) => all.filter((q) => q.key !== p.key))}
        />
      ))}
      <button type="button" onClick={() => setPanels((all) => [...all, panel(DEFAULT_PANEL)])}>
        Add panel
      </button>
    </section>
  );
}
