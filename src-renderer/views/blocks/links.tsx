import { useState, type ReactNode } from 'react';
import type { AppModel } from '../../model/types';
import { classifyImageSource, safeExternalUrl } from '../../model/blocks';
import { formatBytes } from '../../model/format';
import { BLOCK_IDS } from './testids';

/**
 * Links and images from stream content. Nothing remote loads by itself: an http(s) link opens
 * only on click (Electron: main asks the user first; the browser host: a new tab without an
 * opener), and a remote image is shown as such a link. Only data: images render inline.
 */

export function openExternal(app: AppModel, url: string): void {
  const host = app.host.getSnapshot().info?.host;
  if (host === 'browser') {
    window.open(url, '_blank', 'noopener,noreferrer');
    return;
  }
  void app.run('Open link', () => app.openExternal(url));
}

export function ExternalLink({
  app,
  href,
  children,
  title,
}: {
  app: AppModel;
  href: string | undefined;
  children?: ReactNode;
  title?: string;
}) {
  const url = safeExternalUrl(href);
  if (!url) {
    // Relative, javascript:, file: … links are shown but never followed.
    return (
      <span className="ext-link-disabled" title={href ? `Not followed: ${href}` : undefined}>
        {children}
      </span>
    );
  }
  return (
    <a
      className="ext-link"
      href={url}
      title={title ?? `Open ${url} (external)`}
      data-testid={BLOCK_IDS.externalLink}
      rel="noopener noreferrer nofollow"
      target="_blank"
      onClick={(event) => {
        event.preventDefault();
        openExternal(app, url);
      }}
    >
      {children ?? url}
    </a>
  );
}

function hostOf(url: string): string {
  try {
    const u = new URL(url);
    const path = u.pathname.length > 32 ? `${u.pathname.slice(0, 31)}…` : u.pathname;
    return `${u.host}${path}`;
  } catch {
    return url;
  }
}

/** An image reference: inline for a data: image, a click-to-open link for http(s), text otherwise. */
export function ImageRefView({
  app,
  src,
  alt,
  mediaType,
}: {
  app: AppModel;
  src: string;
  alt?: string;
  mediaType?: string;
}) {
  const source = classifyImageSource(src);
  const [zoomed, setZoomed] = useState(false);
  // The source the browser failed to decode as an image (a truncated or placeholder payload).
  const [undecodable, setUndecodable] = useState<string | null>(null);
  if (source.kind === 'data') {
    const size = `${source.mediaType} · ${formatBytes(source.bytes)} (data URI)`;
    if (undecodable === source.src)
      return (
        <span className="img-refused" data-testid={BLOCK_IDS.imageUndecodable}>
          [image not shown: its data does not decode as an image: {size}]
        </span>
      );
    return (
      <figure className={`img-inline ${zoomed ? 'img-zoomed' : ''}`} data-testid={BLOCK_IDS.imageInline}>
        <img
          src={source.src}
          alt={alt ?? 'image from the stream'}
          onClick={() => setZoomed((z) => !z)}
          onError={() => setUndecodable(source.src)}
          title="Click to toggle full size"
        />
        <figcaption>{size}</figcaption>
      </figure>
    );
  }
  if (source.kind === 'remote') {
    return (
      <span className="img-remote" data-testid={BLOCK_IDS.imageRemote}>
        <span className="img-remote-icon" aria-hidden="true">
          ▣
        </span>
        <span>Remote image{mediaType ? ` (${mediaType})` : ''}, not loaded:</span>
        <ExternalLink app={app} href={source.url} title={`Open ${source.url} (loads it from the network)`}>
          {alt ? `${alt} — ` : ''}
          {hostOf(source.url)}
        </ExternalLink>
      </span>
    );
  }
  return (
    <span className="img-refused" title={source.reason}>
      [image not shown: {source.reason}: {src.length > 80 ? `${src.slice(0, 80)}…` : src}]
    </span>
  );
}
