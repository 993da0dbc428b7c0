import { memo, useMemo } from 'react';
import Markdown, { type Components } from 'react-markdown';
import type { AppModel } from '../../model/types';
import { ExternalLink, ImageRefView } from './links';
import { BLOCK_IDS } from './testids';

/**
 * Markdown from the stream, rendered without raw HTML: HTML in the source (an embedded
 * `<chart>`, a stray `<script>`) is turned into literal text before rendering, so it is seen
 * as written and never interpreted. Links open only on click, images follow ImageRefView.
 */

interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
}

/** remark plugin: `html` nodes become `text` nodes with the same source. */
function htmlAsText() {
  return (tree: unknown): void => {
    const stack: MdNode[] = [tree as MdNode];
    while (stack.length > 0) {
      const node = stack.pop();
      if (!node) continue;
      if (node.type === 'html') node.type = 'text';
      if (node.children) for (const child of node.children) stack.push(child);
    }
  };
}

const REMARK_PLUGINS = [htmlAsText];

/**
 * URLs reach the `a` and `img` components unchanged: those two are the only elements with
 * URLs, and they decide themselves what may be followed or shown (ExternalLink, ImageRefView).
 * The default transform would blank data: images, which are safe to show inline.
 */
const keepUrl = (url: string): string => url;

function markdownComponents(app: AppModel): Components {
  return {
    a: ({ href, children }) => (
      <ExternalLink app={app} href={href}>
        {children}
      </ExternalLink>
    ),
    img: ({ src, alt }) =>
      typeof src === 'string' ? <ImageRefView app={app} src={src} {...(alt !== undefined ? { alt } : {})} /> : null,
  };
}

export const SafeMarkdown = memo(function SafeMarkdown({
  app,
  text,
  testId,
}: {
  app: AppModel;
  text: string;
  testId?: string;
}) {
  const components = useMemo(() => markdownComponents(app), [app]);
  return (
    <div className="md" data-testid={testId ?? BLOCK_IDS.markdown}>
      <Markdown remarkPlugins={REMARK_PLUGINS} components={components} urlTransform={keepUrl} skipHtml={false}>
        {text}
      </Markdown>
    </div>
  );
});
