import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorNote, Loading } from './components/status';
import { AlertsPage } from './pages/alerts';
import { HistoryPage } from './pages/history';
import { RoutingPage } from './pages/routing';
import { RulesPage } from './pages/rules';
import { SilenceForm } from './pages/silence-form';
import { SilencePage, SilencesPage } from './pages/silences';
import { StatusPage } from './pages/status';
import { href, useLocation, type Location } from './router';

const PAGES: [string, string][] = [
  ['/alerts', 'Alerts'],
  ['/silences', 'Silences'],
  ['/history', 'History'],
  ['/routing', 'Routing'],
  ['/rules', 'Rules'],
  ['/graph', 'Graph'],
  ['/status', 'Status'],
];

type GraphModule = typeof import('./pages/graph');

/**
 * The graph page, loaded when it is opened: the PromQL editor and the chart are most of the UI's
 * code, and the alert pages load without them.
 */
function GraphPageLoader({ search }: { search: string }) {
  const [graph, setGraph] = useState<GraphModule | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    import('./pages/graph').then(
      (loaded) => setGraph(() => loaded),
      (err: unknown) => setError(`The graph page did not load: ${String(err)}`),
    );
  }, []);
  if (graph) return <graph.GraphPage search={search} />;
  return (
    <>
      <ErrorNote error={error} />
      <Loading when={!error} />
    </>
  );
}

type Theme = 'light' | 'dark';
const THEME_KEY = 'redisx.theme';

function initialTheme(): Theme {
  const saved = localStorage.getItem(THEME_KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function Page({ location }: { location: Location }) {
  const parts = location.path.split('/').filter(Boolean);
  switch (parts[0]) {
    case 'silences':
      if (parts[1] === 'new')
        return <SilenceForm location={location} key={location.params.toString()} />;
      if (parts[1] && parts[2] === 'edit')
        return <SilenceForm location={location} editId={parts[1]} key={parts[1]} />;
      if (parts[1]) return <SilencePage id={parts[1]} />;
      return <SilencesPage location={location} />;
    case 'history':
      return <HistoryPage location={location} />;
    case 'routing':
      return <RoutingPage />;
    case 'rules':
      return <RulesPage />;
    case 'status':
      return <StatusPage />;
    case 'graph':
      return <GraphPageLoader search={location.params.toString()} />;
    case 'alerts':
    default:
      return <AlertsPage location={location} key={location.params.toString()} />;
  }
}

function App() {
  const location = useLocation();
  const [theme, setTheme] = useState<Theme>(initialTheme);
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
  }, [theme]);
  const section = `/${location.path.split('/').filter(Boolean)[0] ?? 'alerts'}`;
  return (
    <>
      <header class="top">
        <a class="brand" href={href('/alerts')}>
          RedisX Alertmanager
        </a>
        <nav aria-label="pages">
          {PAGES.map(([path, title]) => (
            <a href={href(path)} aria-current={section === path ? 'page' : undefined} key={path}>
              {title}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="theme"
          aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}
          onClick={() => {
            const next = theme === 'dark' ? 'light' : 'dark';
            localStorage.setItem(THEME_KEY, next);
            setTheme(next);
          }}
        >
          {theme === 'dark' ? '☀' : '☾'}
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page location={location} />
      </main>
    </>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
