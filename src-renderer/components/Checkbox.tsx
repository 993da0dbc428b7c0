import { memo, type InputHTMLAttributes } from 'react';

/**
 * A checkbox that renders again only when its own props change. React writes an input's type
 * and name attributes on every render of it, changed or not: the pickers of a view that renders
 * on each live batch wrote about a thousand attributes during one fast stream. Give it a stable
 * `onChange` (useStableHandler: one handler that reads `event.target.value`), or it renders
 * every time anyway.
 */
export const Checkbox = memo(function Checkbox(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  return <input type="checkbox" {...props} />;
});
