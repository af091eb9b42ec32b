/** The classic Prometheus label-name syntax, which this server uses everywhere a name is checked. */
export const LABEL_NAME_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The looser syntax of the classic matcher parser, which also allows `:` (as in metric names). */
export const MATCHER_NAME_PATTERN = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/** Reports whether `name` is a valid label name (`[a-zA-Z_][a-zA-Z0-9_]*`). */
export function isValidLabelName(name: string): boolean {
  return LABEL_NAME_PATTERN.test(name);
}

/** A set of labels, as carried by alerts. */
export type LabelSet = Readonly<Record<string, string>>;
