import { useEffect, useState } from 'preact/hooks';
import {
  defaultStep,
  formatRange,
  formatTime,
  parseRange,
  parseTime,
  type PanelOptions,
} from './panel-options';

/** The ranges the − and + buttons step through, as Prometheus's graph offers them. */
const RANGES = [
  '1s',
  '10s',
  '1m',
  '5m',
  '15m',
  '30m',
  '1h',
  '2h',
  '6h',
  '12h',
  '1d',
  '2d',
  '1w',
  '2w',
  '4w',
  '8w',
  '1y',
].map((text) => parseRange(text) as number);

/**
 * A setting typed as text and taken when the field is left or Enter is pressed; a text that
 * `commit` refuses is marked invalid and left for the user to fix.
 */
function SettingInput(props: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  size?: number;
  commit: (text: string) => boolean;
}) {
  const [draft, setDraft] = useState(props.value);
  const [invalid, setInvalid] = useState(false);
  useEffect(() => {
    setDraft(props.value);
    setInvalid(false);
  }, [props.value]);
  return (
    <div class="setting">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="text"
        size={props.size}
        value={draft}
        placeholder={props.placeholder}
        aria-invalid={invalid}
        onInput={(event) => setDraft((event.target as HTMLInputElement).value)}
        onChange={(event) => setInvalid(!props.commit((event.target as HTMLInputElement).value))}
      />
    </div>
  );
}

type Change = (changes: Partial<PanelOptions>) => void;

/** The end time (UTC), empty for now; for the graph the range's end, for the table the instant. */
function EndInput({
  id,
  label,
  options,
  change,
}: {
  id: string;
  label: string;
  options: PanelOptions;
  change: Change;
}) {
  return (
    <SettingInput
      id={id}
      label={label}
      value={options.endMs === null ? '' : formatTime(options.endMs)}
      placeholder="now (YYYY-MM-DD HH:mm:ss UTC)"
      size={22}
      commit={(text) => {
        const end = text.trim() === '' ? null : parseTime(text);
        if (end !== undefined) change({ endMs: end });
        return end !== undefined;
      }}
    />
  );
}

/** The table's evaluation time. */
export function TableControls(props: { id: string; options: PanelOptions; change: Change }) {
  return (
    <div class="panel-controls">
      <EndInput
        id={`${props.id}-time`}
        label="Evaluation time"
        options={props.options}
        change={props.change}
      />
    </div>
  );
}

/** The graph's range (with − and + steps), end, step, stacking and exemplars. */
export function GraphControls({
  id,
  options,
  change,
}: {
  id: string;
  options: PanelOptions;
  change: Change;
}) {
  const shorter = [...RANGES].reverse().find((r) => r < options.rangeMs);
  const longer = RANGES.find((r) => r > options.rangeMs);
  return (
    <div class="panel-controls">
      <div class="range">
        <button
          type="button"
          aria-label="Shorter range"
          disabled={shorter === undefined}
          onClick={() => shorter !== undefined && change({ rangeMs: shorter })}
        >
          −
        </button>
        <SettingInput
          id={`${id}-range`}
          label="Range"
          value={formatRange(options.rangeMs)}
          size={6}
          commit={(text) => {
            const range = parseRange(text);
            if (range !== undefined && range > 0) change({ rangeMs: range });
            return range !== undefined && range > 0;
          }}
        />
        <button
          type="button"
          aria-label="Longer range"
          disabled={longer === undefined}
          onClick={() => longer !== undefined && change({ rangeMs: longer })}
        >
          +
        </button>
      </div>
      <EndInput id={`${id}-end`} label="End" options={options} change={change} />
      <SettingInput
        id={`${id}-step`}
        label="Step (seconds)"
        value={options.stepSeconds === null ? '' : String(options.stepSeconds)}
        placeholder={`${defaultStep(options.rangeMs)}`}
        size={6}
        commit={(text) => {
          const step = text.trim() === '' ? null : Number(text);
          const valid = step === null || step > 0;
          if (valid) change({ stepSeconds: step });
          return valid;
        }}
      />
      <label class="toggle">
        <input
          type="checkbox"
          checked={options.stacked}
          onChange={() => change({ stacked: !options.stacked })}
        />
        Stacked
      </label>
      <label class="toggle">
        <input
          type="checkbox"
          checked={options.showExemplars}
          onChange={() => change({ showExemplars: !options.showExemplars })}
        />
        Show exemplars
      </label>
    </div>
  );
}
