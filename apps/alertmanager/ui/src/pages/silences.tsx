import { useState } from 'preact/hooks';
import { api, type Silence } from '../api';
import { ErrorNote, Loading } from '../components/status';
import { formatTime, relative } from '../format';
import { useLive } from '../live';
import { formatMatcher } from '../matchers';
import { href, navigate, type Location } from '../router';

const STATES = ['active', 'pending', 'expired'] as const;

/** Silences by state, each with edit, duplicate and expire. */
export function SilencesPage({ location }: { location: Location }) {
  const state = (location.params.get('state') ?? 'active') as (typeof STATES)[number];
  const silences = useLive(() => api.silences(), []);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const shown = (silences.data ?? []).filter((s) => s.status.state === state);
  const counts = Object.fromEntries(
    STATES.map((s) => [s, (silences.data ?? []).filter((x) => x.status.state === s).length]),
  );
  const expire = async (silence: Silence) => {
    setProblem(undefined);
    try {
      await api.expireSilence(silence.id);
      silences.refresh();
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <section aria-labelledby="silences-title">
      <h1 id="silences-title">Silences</h1>
      <div class="toolbar">
        <nav class="tabs" aria-label="silence states">
          {STATES.map((s) => (
            <a
              href={href('/silences', { state: s })}
              aria-current={s === state ? 'page' : undefined}
              key={s}
            >
              {s} ({counts[s]})
            </a>
          ))}
        </nav>
        <a class="button-link primary" href={href('/silences/new')}>
          New silence
        </a>
      </div>
      <ErrorNote error={silences.error ?? problem} />
      <Loading when={silences.loading && !silences.data} />
      {silences.data && shown.length === 0 && <p class="muted">No {state} silences.</p>}
      <ul class="silences">
        {shown.map((silence) => (
          <SilenceItem silence={silence} onExpire={expire} key={silence.id} />
        ))}
      </ul>
    </section>
  );
}

function SilenceItem({
  silence,
  onExpire,
}: {
  silence: Silence;
  onExpire: (silence: Silence) => void;
}) {
  const matchers = silence.matchers.map(formatMatcher).join(', ');
  return (
    <li class="card silence" data-silence-id={silence.id}>
      <div class="silence-matchers mono">{`{${matchers}}`}</div>
      <p>
        <span class={`badge badge-${silence.status.state}`}>{silence.status.state}</span>{' '}
        {silence.comment}
      </p>
      <p class="muted">
        by {silence.createdBy} · from {formatTime(silence.startsAt)} until{' '}
        {formatTime(silence.endsAt)} ({relative(silence.endsAt)}) ·{' '}
        <a href={href(`/silences/${silence.id}`)} class="mono">
          {silence.id}
        </a>
      </p>
      <div class="actions">
        {silence.status.state !== 'expired' && (
          <a class="button-link" href={href(`/silences/${silence.id}/edit`)}>
            Edit
          </a>
        )}
        <a class="button-link" href={href('/silences/new', { from: silence.id })}>
          Duplicate
        </a>
        {silence.status.state !== 'expired' && (
          <button type="button" class="danger" onClick={() => onExpire(silence)}>
            Expire
          </button>
        )}
      </div>
    </li>
  );
}

/** One silence by its id, with its actions. */
export function SilencePage({ id }: { id: string }) {
  const silence = useLive(() => api.silence(id), [id]);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  return (
    <section aria-labelledby="silence-title">
      <h1 id="silence-title">Silence</h1>
      <ErrorNote error={silence.error ?? problem} />
      <Loading when={silence.loading && !silence.data} />
      {silence.data && (
        <ul class="silences">
          <SilenceItem
            silence={silence.data}
            onExpire={(s) =>
              api.expireSilence(s.id).then(
                () => navigate('/silences', { state: 'expired' }),
                (error: Error) => setProblem(error.message),
              )
            }
          />
        </ul>
      )}
    </section>
  );
}
