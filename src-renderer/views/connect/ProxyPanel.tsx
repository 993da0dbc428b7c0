import { useState } from 'react';
import type { ProxyExchange } from '../../../src-shared/contract';
import type { RendererApp } from '../../model/types';
import { useStore } from '../../app/hooks';
import { formatBytes } from '../../model/format';
import { TEST_IDS } from '../../testids';

/** Exchanges shown in the panel: the latest ones. */
const SHOWN_EXCHANGES = 12;

/**
 * The recording proxy: the user points a frontend at a local port, and every event stream
 * its agent server sends back becomes a session here, live and recorded; other requests are
 * forwarded and listed. The same as `stream-inspector proxy`.
 */
export function ProxyPanel({ app }: { app: RendererApp }) {
  const proxy = useStore(app.proxy);
  const demo = useStore(app.host).demo;
  // Until the user types a target, it is the embedded demo agent (known once the host answered).
  const [typedTarget, setTarget] = useState<string | null>(null);
  const target = typedTarget ?? demo?.baseUrl ?? '';
  const [port, setPort] = useState('0');
  const [busy, setBusy] = useState(false);
  const portNumber = Number(port);
  const portValid = /^\d+$/.test(port) && portNumber <= 65535;

  const start = async (): Promise<void> => {
    setBusy(true);
    try {
      await app.startProxy({ port: portNumber, target: target.trim() });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel" data-testid={TEST_IDS.proxyPanel}>
      <div className="panel-title">Recording proxy</div>
      {proxy ? (
        <>
          <p className="hint">
            Point your frontend at <code data-testid={TEST_IDS.proxyUrl}>{proxy.url}</code>: requests go on to{' '}
            <code>{proxy.target}</code> unchanged, and each event stream opens a session here
            {proxy.recordDir ? `, recorded in ${proxy.recordDir}` : ' (Save keeps its recording)'}.
          </p>
          <ul className="proxy-exchanges" data-testid={TEST_IDS.proxyExchanges}>
            {proxy.exchanges.length === 0 && <li className="hint">No request yet.</li>}
            {proxy.exchanges
              .slice(-SHOWN_EXCHANGES)
              .reverse()
              .map((e) => (
                <li key={e.id} title={e.error ?? ''}>
                  <ExchangeLine exchange={e} onOpen={() => e.sessionId && openSession(app, e.sessionId)} />
                </li>
              ))}
          </ul>
          <div className="panel-actions">
            <button
              type="button"
              className="button"
              data-testid={TEST_IDS.proxyStop}
              onClick={() => void app.stopProxy()}
            >
              Stop the proxy
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="hint">
            A reverse proxy on 127.0.0.1 between a real frontend and its agent server: what the frontend receives, as
            sessions, live.
          </p>
          <div className="request-line proxy-fields">
            <label className="field">
              <span className="field-label">Agent server</span>
              <input
                className="input"
                placeholder="e.g. http://127.0.0.1:8787"
                spellCheck={false}
                data-testid={TEST_IDS.proxyTarget}
                value={target}
                onChange={(e) => setTarget(e.target.value)}
              />
            </label>
            <label className="field proxy-port">
              <span className="field-label">Port</span>
              <input
                className="input"
                title="Port on 127.0.0.1 (0: any free one)"
                placeholder="0: any"
                spellCheck={false}
                data-testid={TEST_IDS.proxyPort}
                value={port}
                onChange={(e) => setPort(e.target.value)}
              />
            </label>
            <button
              type="button"
              className="button"
              data-testid={TEST_IDS.proxyStart}
              disabled={busy || !portValid || target.trim() === ''}
              onClick={() => void start()}
            >
              Start
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function openSession(app: RendererApp, sessionId: string): void {
  app.setActiveSession(sessionId);
  app.navigate('timeline');
}

function ExchangeLine({ exchange: e, onOpen }: { exchange: ProxyExchange; onOpen: () => void }) {
  const label = `${e.method} ${e.path}`;
  const status = e.error ? 'failed' : (e.status ?? '…');
  return (
    <span className="proxy-exchange">
      <span className={`proxy-status ${e.error || (e.status ?? 200) >= 400 ? 'proxy-status-bad' : ''}`}>{status}</span>
      {e.sessionId ? (
        <button type="button" className="link-button proxy-path" onClick={onOpen} title="Show its session">
          {label}
        </button>
      ) : (
        <span className="proxy-path">{label}</span>
      )}
      <span className="dim">
        {e.contentType?.split(';')[0] ?? ''} {e.endedAt !== undefined ? formatBytes(e.bytes) : 'streaming…'}
      </span>
    </span>
  );
}
