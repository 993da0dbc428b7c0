import { PyFloat, PyModel, type PyValue } from '../python-json';
import type {
  ApiEvent,
  ApiMessage,
  Citation,
  ContentBlock,
  Delta,
  ImageRef,
  MetaInit,
  PendingTool,
  ServerToolResultType,
  Step,
  StopReason,
} from '../script';

/**
 * Test support: reads an upstream `raw` stream (fixtures) back into demo-agent steps, so the
 * json and xml emitters can be run over exactly the events the upstream formatters saw and
 * their output compared with the upstream's json and xml streams byte for byte.
 */

/** JSON.parse that keeps floats as PyFloat (`0.0` must print back as `0.0`). */
export function parsePyJson(text: string): PyValue {
  let at = 0;
  const ws = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at] ?? '')) at++;
  };
  const value = (): PyValue => {
    ws();
    const c = text[at];
    if (c === '{') {
      at++;
      const out: Record<string, PyValue> = {};
      ws();
      if (text[at] === '}') return (at++, out);
      for (;;) {
        ws();
        const key = value() as string;
        ws();
        at++; // ':'
        out[key] = value();
        ws();
        if (text[at++] === '}') return out;
      }
    }
    if (c === '[') {
      at++;
      const out: PyValue[] = [];
      ws();
      if (text[at] === ']') return (at++, out);
      for (;;) {
        out.push(value());
        ws();
        if (text[at++] === ']') return out;
      }
    }
    if (c === '"') {
      const start = at++;
      while (text[at] !== '"') at += text[at] === '\\' ? 2 : 1;
      at++;
      return JSON.parse(text.slice(start, at)) as string;
    }
    const token = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(at, at + 40))?.[0];
    if (!token) throw new SyntaxError(`bad JSON at ${at}`);
    at += token.length;
    if (token === 'true' || token === 'false') return token === 'true';
    if (token === 'null') return null;
    return /[.eE]/.test(token) ? new PyFloat(Number(token)) : Number(token);
  };
  return value();
}

const obj = (v: PyValue | undefined): Record<string, PyValue> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, PyValue>) : {};
const str = (v: PyValue | undefined): string => (typeof v === 'string' ? v : '');
const num = (v: PyValue | undefined): number => (typeof v === 'number' ? v : v instanceof PyFloat ? v.value : 0);

function citationFrom(v: PyValue): Citation {
  const c = obj(v);
  const title = typeof c['document_title'] === 'string' ? c['document_title'] : null;
  if (c['type'] === 'char_location')
    return {
      type: 'char_location',
      cited_text: str(c['cited_text']),
      document_index: num(c['document_index']),
      document_title: title,
      start_char_index: num(c['start_char_index']),
      end_char_index: num(c['end_char_index']),
    };
  if (c['type'] === 'page_location')
    return {
      type: 'page_location',
      cited_text: str(c['cited_text']),
      document_index: num(c['document_index']),
      document_title: title,
      start_page_number: num(c['start_page_number']),
      end_page_number: num(c['end_page_number']),
    };
  return {
    type: 'web_search_result_location',
    cited_text: str(c['cited_text']),
    url: str(c['url']),
    title: typeof c['title'] === 'string' ? c['title'] : null,
    encrypted_index: str(c['encrypted_index']),
  };
}

/** SDK classes of server tool result contents: json and xml print their repr (`json.dumps(default=str)`). */
const SDK_MODELS: Readonly<Record<string, string>> = {
  web_search_result: 'BetaWebSearchResultBlock',
  bash_code_execution_result: 'BetaBashCodeExecutionResultBlock',
  bash_code_execution_output: 'BetaBashCodeExecutionOutputBlock',
  text_editor_code_execution_create_result: 'BetaTextEditorCodeExecutionCreateResultBlock',
};

function sdkModels(v: PyValue): PyValue {
  if (Array.isArray(v)) return (v as PyValue[]).map(sdkModels);
  if (!v || typeof v !== 'object' || v instanceof PyFloat || v instanceof PyModel) return v;
  const fields: Record<string, PyValue> = {};
  for (const [key, item] of Object.entries(v)) fields[key] = sdkModels(item);
  const className = SDK_MODELS[str(fields['type'])];
  return className ? new PyModel(className, fields) : fields;
}

function blockFrom(v: PyValue | undefined): ContentBlock {
  const b = obj(v);
  switch (b['type']) {
    case 'text':
      return {
        type: 'text',
        text: str(b['text']),
        citations: Array.isArray(b['citations']) ? (b['citations'] as PyValue[]).map(citationFrom) : null,
      };
    case 'thinking':
      return { type: 'thinking', thinking: str(b['thinking']), signature: str(b['signature']) };
    case 'tool_use':
    case 'server_tool_use':
      return { type: b['type'], id: str(b['id']), name: str(b['name']), input: b['input'] ?? {} };
    default:
      return {
        type: str(b['type']) as ServerToolResultType,
        tool_use_id: str(b['tool_use_id']),
        content: sdkModels(b['content'] ?? null),
      };
  }
}

function messageFrom(v: PyValue | undefined): ApiMessage {
  const m = obj(v);
  const usage = obj(m['usage']);
  return {
    id: str(m['id']),
    model: str(m['model']),
    content: Array.isArray(m['content']) ? (m['content'] as PyValue[]).map(blockFrom) : [],
    stop_reason: (m['stop_reason'] as StopReason | null) ?? null,
    usage: { input_tokens: num(usage['input_tokens']), output_tokens: num(usage['output_tokens']) },
  };
}

function eventFrom(e: Record<string, PyValue>): ApiEvent {
  switch (e['type']) {
    case 'message_start':
      return { type: 'message_start', message: messageFrom(e['message']) };
    case 'content_block_start':
      return { type: 'content_block_start', index: num(e['index']), block: blockFrom(e['content_block']) };
    case 'content_block_delta':
      return { type: 'content_block_delta', index: num(e['index']), delta: obj(e['delta']) as unknown as Delta };
    case 'content_block_stop':
      return { type: 'content_block_stop', index: num(e['index']), block: blockFrom(e['content_block']) };
    case 'message_delta': {
      const usage = obj(e['usage']);
      return {
        type: 'message_delta',
        stop_reason: obj(e['delta'])['stop_reason'] as StopReason,
        usage: { input_tokens: num(usage['input_tokens']), output_tokens: num(usage['output_tokens']) },
      };
    }
    default:
      return { type: 'message_stop', message: messageFrom(e['message']) };
  }
}

const unescapeHtml = (s: string): string =>
  s.replace(
    /&(quot|#x27|lt|gt|amp);/g,
    (_, e: string) => ({ quot: '"', '#x27': "'", lt: '<', gt: '>', amp: '&' })[e] ?? '',
  );
const dataAttr = (item: string): PyValue => parsePyJson(unescapeHtml(/ data="([^"]*)"/.exec(item)?.[1] ?? 'null'));
const unescapeCdata = (s: string): string => s.replaceAll(']]]]><![CDATA[>', ']]>').replaceAll('\\n', '\n');

function toolResultFrom(item: string, agent: string): Step {
  const [, id = '', name = '', rest = ''] =
    /^<content-block-tool_result id="([^"]*)" name="([^"]*)">(.*)<\/content-block-tool_result>$/s.exec(item) ?? [];
  const multimodal = /^<text><!\[CDATA\[(.*)\]\]><\/text>(.*)$/s.exec(rest);
  if (multimodal) {
    const images: ImageRef[] = [
      ...(multimodal[2] ?? '').matchAll(/<image src="([^"]*)" media_type="([^"]*)" \/>/g),
    ].map((m) => ({ src: unescapeHtml(m[1] ?? ''), media_type: unescapeHtml(m[2] ?? '') }));
    return {
      kind: 'tool_result',
      agent,
      toolUseId: unescapeHtml(id),
      name: unescapeHtml(name),
      content: [{ type: 'text', text: unescapeCdata(multimodal[1] ?? '') }],
      images,
    };
  }
  const content = /^<!\[CDATA\[(.*)\]\]>$/s.exec(rest)?.[1] ?? '';
  return {
    kind: 'tool_result',
    agent,
    toolUseId: unescapeHtml(id),
    name: unescapeHtml(name),
    content: unescapeCdata(content),
    images: [],
  };
}

/** The steps behind an upstream raw stream (single agent; `agent` is used until a meta_init names one). */
export function stepsFromRaw(stream: string, agent = ''): Step[] {
  const steps: Step[] = [];
  for (const event of stream.split('\n\n')) {
    if (!event.startsWith('data: ')) continue;
    const item = event.slice('data: '.length);
    if (item === '[DONE]') steps.push({ kind: 'done' });
    else if (item.startsWith('<meta_init ')) {
      const meta = obj(dataAttr(item));
      agent = str(meta['agent_uuid']);
      const payload: MetaInit = {
        user_query: str(meta['user_query']),
        agent_uuid: agent,
        parent_agent_uuid: typeof meta['parent_agent_uuid'] === 'string' ? meta['parent_agent_uuid'] : null,
        model: str(meta['model']),
      };
      if (meta['message_history'] !== undefined) payload.message_history = meta['message_history'];
      steps.push({ kind: 'meta_init', agent, payload });
    } else if (item.startsWith('<content-block-tool_result ')) steps.push(toolResultFrom(item, agent));
    else if (item.startsWith('<awaiting_frontend_tools '))
      steps.push({ kind: 'awaiting_frontend_tools', agent, tools: dataAttr(item) as unknown as PendingTool[] });
    else if (item.startsWith('<content-block-meta_files>')) {
      const json = item.slice('<content-block-meta_files><![CDATA['.length, -']]></content-block-meta_files>'.length);
      steps.push({ kind: 'meta_files', agent, files: obj(parsePyJson(json))['files'] as PyValue[] });
    } else if (item.startsWith('<meta_final ')) steps.push({ kind: 'meta_final', agent, payload: dataAttr(item) });
    else {
      const json = obj(parsePyJson(item));
      if ('traceback' in json)
        steps.push({
          kind: 'error_frame',
          error: str(json['error']),
          message: str(json['message']),
          traceback: str(json['traceback']),
        });
      else steps.push({ kind: 'api', agent, event: eventFrom(json) });
    }
  }
  return steps;
}
