import type { KeyboardEvent } from 'react';

/** The keys that move a closed select's choice without opening it (Chromium on Linux and Windows). */
const MOVING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * An arrow key on a closed menu would choose, and act, without the user seeing the list: those
 * keys are held back. Space, Enter and Alt+Down still open the list, where the arrows move as usual.
 */
function holdMovingKeys(event: KeyboardEvent<HTMLSelectElement>): void {
  if (MOVING_KEYS.has(event.key) && !event.altKey) event.preventDefault();
}

export interface ActionChoice<T extends string> {
  value: T;
  label: string;
  title?: string;
}

/**
 * A menu that acts as soon as a choice is made ("Export…", "Decode as…"): closed, it shows
 * `placeholder`; a choice calls `onChoose` and the menu shows its placeholder again.
 */
export function ActionMenu<T extends string>({
  className,
  testId,
  label,
  title,
  placeholder,
  choices,
  onChoose,
}: {
  className: string;
  testId: string;
  label: string;
  title?: string;
  placeholder: string;
  choices: readonly ActionChoice<T>[];
  onChoose: (value: T) => void;
}) {
  return (
    <select
      className={`select ${className}`}
      data-testid={testId}
      value=""
      aria-label={label}
      title={title}
      onKeyDown={holdMovingKeys}
      onChange={(event) => {
        const value = event.target.value as T | '';
        if (value) onChoose(value);
      }}
    >
      <option value="">{placeholder}</option>
      {choices.map((choice) => (
        <option key={choice.value} value={choice.value} title={choice.title}>
          {choice.label}
        </option>
      ))}
    </select>
  );
}
