import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, type GettableAlert, type LabelSet } from '../api';
import { Labels } from '../components/labels';
import { MatcherInput } from '../components/matcher-input';
import { ErrorNote } from '../components/status';
import { TextField } from '../components/text-field';
import { parseDuration, toLocalInput } from '../format';
import { formatMatcher, parseMatchers } from '../matchers';
import { navigate, type Location } from '../router';

const CREATED_BY = 'redisx.silence.createdBy';

/**
 * A new silence (prefilled from an alert's labels or another silence) or an edit of one: its
 * matchers, start, duration or end, author and comment. "Preview" lists the alerts it would
 * match before it is saved; what the API refuses is shown inline with its message.
 */
export function SilenceForm({ location, editId }: { location: Location; editId?: string }) {
  const sourceId = editId ?? location.params.get('from') ?? undefined;
  const [matchers, setMatchers] = useState(location.params.get('matchers') ?? '');
  const [startsAt, setStartsAt] = useState(toLocalInput(Date.now()));
  const [duration, setDuration] = useState('2h');
  const [endsAt, setEndsAt] = useState(toLocalInput(Date.now() + 2 * 3_600_000));
  const [createdBy, setCreatedBy] = useState(localStorage.getItem(CREATED_BY) ?? '');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [preview, setPreview] = useState<GettableAlert[] | undefined>(undefined);
  const [known, setKnown] = useState<LabelSet[]>([]);
  const [saving, setSaving] = useState(false);
  // The edited silence's exact times: a field left as shown sends them back unchanged, so an
  // update that changes only the comment keeps the silence's id (minutes are all a field shows).
  const [original, setOriginal] = useState<{ startsAt: string; endsAt: string } | undefined>(
    undefined,
  );

  useEffect(() => {
    api.alerts([]).then(
      (alerts) => setKnown(alerts.map((a) => a.labels)),
      () => undefined,
    );
  }, []);
  useEffect(() => {
    if (sourceId === undefined) return;
    api.silence(sourceId).then(
      (silence) => {
        setMatchers(silence.matchers.map(formatMatcher).join(', '));
        setComment(silence.comment);
        setCreatedBy(silence.createdBy);
        if (editId !== undefined) {
          setOriginal({ startsAt: silence.startsAt, endsAt: silence.endsAt });
          setStartsAt(toLocalInput(silence.startsAt));
          setEndsAt(toLocalInput(silence.endsAt));
          setDuration('');
        }
      },
      (err: Error) => setError(err.message),
    );
  }, [sourceId, editId]);

  const updateDuration = (text: string) => {
    setDuration(text);
    const ms = parseDuration(text);
    if (ms !== undefined) setEndsAt(toLocalInput(new Date(startsAt).getTime() + ms));
  };
  const parsed = useMemo(() => {
    try {
      return { matchers: parseMatchers(matchers), problem: undefined };
    } catch (err) {
      return { matchers: [], problem: (err as Error).message };
    }
  }, [matchers]);

  const runPreview = async () => {
    setError(parsed.problem);
    if (parsed.problem) return;
    try {
      setPreview(await api.alerts(parsed.matchers.map(formatMatcher)));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const save = async (event: Event) => {
    event.preventDefault();
    setError(parsed.problem);
    if (parsed.problem) return;
    setSaving(true);
    try {
      localStorage.setItem(CREATED_BY, createdBy);
      const reply = await api.postSilence({
        id: editId,
        matchers: parsed.matchers,
        startsAt: exactTime(startsAt, original?.startsAt),
        endsAt: exactTime(endsAt, original?.endsAt),
        createdBy,
        comment,
      });
      navigate(`/silences/${reply.silenceID}`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="silence-form-title">
      <h1 id="silence-form-title">{editId ? 'Edit silence' : 'New silence'}</h1>
      <form class="card form" onSubmit={save} aria-describedby="silence-error">
        <MatcherInput
          id="silence-matchers"
          label="Matchers"
          value={matchers}
          onInput={(value) => {
            setMatchers(value);
            setPreview(undefined);
          }}
          known={known}
        />
        <div class="row">
          <TextField
            id="silence-start"
            label="Start"
            type="datetime-local"
            value={startsAt}
            onInput={setStartsAt}
          />
          <TextField
            id="silence-duration"
            label="Duration"
            value={duration}
            placeholder="2h"
            onInput={updateDuration}
          />
          <TextField
            id="silence-end"
            label="End"
            type="datetime-local"
            value={endsAt}
            onInput={(value) => {
              setEndsAt(value);
              setDuration('');
            }}
          />
        </div>
        <TextField
          id="silence-author"
          label="Created by"
          value={createdBy}
          onInput={setCreatedBy}
        />
        <div class="field">
          <label for="silence-comment">Comment</label>
          <textarea
            id="silence-comment"
            rows={3}
            value={comment}
            onInput={(e) => setComment((e.target as HTMLTextAreaElement).value)}
          />
        </div>
        <div id="silence-error">
          <ErrorNote error={error} />
        </div>
        <div class="actions">
          <button type="button" onClick={runPreview}>
            Preview alerts
          </button>
          <button type="submit" class="primary" disabled={saving}>
            {editId ? 'Update' : 'Create'}
          </button>
        </div>
      </form>
      {preview && (
        <section class="card" aria-label="preview">
          <h2>
            {preview.length} alert{preview.length === 1 ? '' : 's'} would be silenced
          </h2>
          <ul class="alerts preview">
            {preview.map((alert) => (
              <li key={alert.fingerprint} class="alert">
                <Labels labels={alert.labels} />
              </li>
            ))}
          </ul>
        </section>
      )}
    </section>
  );
}

/** The field's time, or the original time it shows when it was left as it was. */
function exactTime(field: string, original: string | undefined): string {
  if (original !== undefined && toLocalInput(original) === field) return original;
  return new Date(field).toISOString();
}
