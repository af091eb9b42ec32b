/** A labelled `<input>` in a `.field`, reporting each change of its text. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'datetime-local';
  placeholder?: string;
}) {
  const { id } = props;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? 'text'}
        value={props.value}
        placeholder={props.placeholder}
        onInput={(event) => props.onInput((event.target as HTMLInputElement).value)}
      />
    </div>
  );
}
