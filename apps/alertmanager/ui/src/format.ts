// Times and durations as the pages show them.

export function formatTime(value: string | number | undefined): string {
  if (value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || date.getTime() <= 0) return '';
  return date.toLocaleString();
}

/** `3m ago`, `in 2h`. */
export function relative(value: string | number, now = Date.now()): string {
  const ms = new Date(value).getTime() - now;
  const abs = Math.abs(ms);
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
  ];
  const [size, unit] = units.find(([s]) => abs >= s) ?? [1000, 's'];
  const text = `${Math.floor(abs / size)}${unit}`;
  return ms < 0 ? `${text} ago` : `in ${text}`;
}

/** Go-style duration text (`2h`, `30m`, `1h30m`) as milliseconds, or undefined. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(trimmed)) return undefined;
  const sizes: Record<string, number> = {
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000,
    w: 604_800_000,
  };
  let total = 0;
  for (const [, amount, , unit] of trimmed.matchAll(/(\d+(\.\d+)?)(ms|s|m|h|d|w)/g)) {
    total += Number(amount) * sizes[unit];
  }
  return total;
}

/** `datetime-local` input value of a time. */
export function toLocalInput(value: string | number): string {
  const date = new Date(value);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
