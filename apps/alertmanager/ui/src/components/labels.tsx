import type { LabelSet } from '../api';

/** Labels as chips, sorted by name; the `skip` names (e.g. a group's own labels) left out. */
export function Labels({ labels, skip = [] }: { labels: LabelSet; skip?: string[] }) {
  const names = Object.keys(labels)
    .filter((name) => !skip.includes(name))
    .sort();
  return (
    <ul class="labels" aria-label="labels">
      {names.map((name) => (
        <li class={`label${name === 'alertname' ? ' label-name' : ''}`} key={name}>
          <span class="label-key">{name}</span>=<span class="label-value">{labels[name]}</span>
        </li>
      ))}
    </ul>
  );
}

const URL_PATTERN = /(https?:\/\/[^\s<>"']+)/g;

/** Text with its http(s) addresses as links. */
function Linked({ text }: { text: string }) {
  const parts = text.split(URL_PATTERN);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <a href={part} target="_blank" rel="noopener noreferrer" key={i}>
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

/** Annotations as a definition list, links clickable. */
export function Annotations({ annotations }: { annotations: LabelSet }) {
  const names = Object.keys(annotations).sort();
  if (names.length === 0) return null;
  return (
    <dl class="annotations">
      {names.map((name) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>
            <Linked text={annotations[name]} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
