import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { REPLAY_KEYS } from '../model/replay';
import { HelpOverlay } from './HelpOverlay';
import { SHORTCUTS } from './shortcuts';

const markup = (): string => renderToStaticMarkup(createElement(HelpOverlay, { onClose: () => {} }));

/** The text of each table row: key and description. */
const rows = (html: string): string[] =>
  [...html.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    (m[1] ?? '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );

const escaped = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

describe('the help overlay', () => {
  it('regression: the replay keys were missing — it lists each of REPLAY_KEYS with its description', () => {
    const listed = rows(markup());
    for (const k of REPLAY_KEYS) expect(listed).toContain(`${escaped(k.key)} ${k.description}`);
  });

  it('lists every shortcut', () => {
    const listed = rows(markup());
    for (const s of SHORTCUTS) expect(listed).toContain(`${escaped(s.keys)} ${s.description}`);
  });
});
