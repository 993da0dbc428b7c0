/**
 * `curl` command lines in and out: paste one (e.g. from the browser's "Copy as cURL") to fill
 * the connect form, or copy any session's request as one. Only what a streaming request needs
 * is understood; anything else is named in a clear error rather than silently dropped.
 */

export interface ParsedCurl {
  readonly url: string;
  readonly method: string;
  readonly headers: [string, string][];
  /** The request body, when there is one. */
  readonly body?: string;
  /** The body came from --json (or a JSON content type): edit it as JSON. */
  readonly bodyIsJson: boolean;
  /** Options accepted but without effect here (-s, --compressed, -N …). */
  readonly ignored: string[];
}

export class CurlParseError extends Error {
  override readonly name = 'CurlParseError';
}

/** Splits a shell command line the way bash would for the quoting curl commands use. */
export function shellWords(input: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let i = 0;
  const n = input.length;
  while (i < n) {
    const ch = input[i]!;
    if (ch === '\\' && (input[i + 1] === '\n' || (input[i + 1] === '\r' && input[i + 2] === '\n'))) {
      // Line continuation.
      i += input[i + 1] === '\n' ? 2 : 3;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (ch === "'") {
      const end = input.indexOf("'", i + 1);
      if (end < 0) throw new CurlParseError("Unclosed single quote (') in the command.");
      word += input.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '$' && input[i + 1] === "'") {
      const [text, next] = ansiCQuoted(input, i + 2);
      word += text;
      i = next;
    } else if (ch === '"') {
      i++;
      for (;;) {
        if (i >= n) throw new CurlParseError('Unclosed double quote (") in the command.');
        const c = input[i]!;
        if (c === '"') {
          i++;
          break;
        }
        if (c === '\\' && i + 1 < n && '"\\$`\n'.includes(input[i + 1]!)) {
          if (input[i + 1] !== '\n') word += input[i + 1];
          i += 2;
          continue;
        }
        if (c === '$' || c === '`')
          throw new CurlParseError(
            'Shell substitutions ($… or `…`) inside double quotes cannot be expanded here: paste the command with the values filled in.',
          );
        word += c;
        i++;
      }
    } else if (ch === '\\') {
      if (i + 1 < n) word += input[i + 1];
      i += 2;
    } else if (ch === '$' || ch === '`') {
      throw new CurlParseError(
        'Shell substitutions ($… or `…`) cannot be expanded here: paste the command with the values filled in.',
      );
    } else if (ch === '|' || ch === ';' || ch === '&' || ch === '>' || ch === '<') {
      throw new CurlParseError(
        `The command contains '${ch}' (a pipe, redirection or second command): paste only the curl command.`,
      );
    } else {
      word += ch;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** bash's $'…' quoting (Chrome's "Copy as cURL (bash)" uses it for bodies with newlines). */
function ansiCQuoted(input: string, start: number): [string, number] {
  let out = '';
  let i = start;
  const simple: Record<string, string> = {
    n: '\n',
    r: '\r',
    t: '\t',
    '\\': '\\',
    "'": "'",
    '"': '"',
    a: '\x07',
    b: '\b',
    e: '\x1b',
    f: '\f',
    v: '\v',
    '?': '?',
  };
  while (i < input.length) {
    const ch = input[i]!;
    if (ch === "'") return [out, i + 1];
    if (ch !== '\\') {
      out += ch;
      i++;
      continue;
    }
    const next = input[i + 1] ?? '';
    const mapped = simple[next];
    if (mapped !== undefined) {
      out += mapped;
      i += 2;
    } else if (next === 'x') {
      const hex = /^[0-9a-fA-F]{1,2}/.exec(input.slice(i + 2, i + 4))?.[0] ?? '';
      out += String.fromCharCode(parseInt(hex || '0', 16));
      i += 2 + hex.length;
    } else if (next === 'u' || next === 'U') {
      const hex = /^[0-9a-fA-F]+/.exec(input.slice(i + 2, i + (next === 'u' ? 6 : 10)))?.[0] ?? '';
      out += String.fromCodePoint(parseInt(hex || '0', 16));
      i += 2 + hex.length;
    } else if (/[0-7]/.test(next)) {
      const octal = /^[0-7]{1,3}/.exec(input.slice(i + 1, i + 4))![0];
      out += String.fromCharCode(parseInt(octal, 8));
      i += 1 + octal.length;
    } else {
      out += `\\${next}`;
      i += 2;
    }
  }
  throw new CurlParseError("Unclosed $'…' quote in the command.");
}

const NO_EFFECT = new Set([
  '-N',
  '--no-buffer',
  '-s',
  '--silent',
  '-S',
  '--show-error',
  '--compressed',
  '-v',
  '--verbose',
  '-i',
  '--include',
  '-L',
  '--location',
  '-f',
  '--fail',
  '--fail-with-body',
  '-#',
  '--progress-bar',
  '--http1.1',
  '--http2',
  '-g',
  '--globoff',
]);
/** Options taking a value that have no effect here. */
const NO_EFFECT_WITH_VALUE = new Set([
  '-m',
  '--max-time',
  '--connect-timeout',
  '-o',
  '--output',
  '-w',
  '--write-out',
  '--retry',
]);

/**
 * Parses a curl command into the connect form's fields. Understood: the URL (first
 * non-option or --url), -X/--request, -H/--header, -d/--data/--data-raw/--data-binary/
 * --data-ascii (several are joined with `&`, as curl does), --json, -A, -e, -b (as headers).
 */
export function parseCurl(command: string): ParsedCurl {
  const words = shellWords(command.trim());
  if (words.length === 0) throw new CurlParseError('The command is empty: paste a command starting with curl.');
  if (words[0] !== 'curl') throw new CurlParseError(`Expected a command starting with "curl", got "${words[0]}".`);
  let url: string | undefined;
  let method: string | undefined;
  const headers: [string, string][] = [];
  const data: string[] = [];
  let json = false;
  const ignored: string[] = [];
  /**
   * A header an option sets (-A, -e, -b), its value trimmed as a server reads a header; an
   * empty one sends none (curl's `-A ''` removes the User-Agent), as `-H 'Name:'` does.
   */
  const optionHeader = (name: string, raw: string): void => {
    const trimmed = raw.trim();
    if (trimmed !== '') headers.push([name, trimmed]);
  };

  // Combined short flags without effect (-sSN) are read one by one.
  const expanded = words.flatMap((word, i) =>
    i > 0 && /^-[A-Za-z#]{2,}$/.test(word) && [...word.slice(1)].every((c) => NO_EFFECT.has(`-${c}`))
      ? [...word.slice(1)].map((c) => `-${c}`)
      : [word],
  );
  for (let i = 1; i < expanded.length; i++) {
    let word = expanded[i]!;
    let inlineValue: string | undefined;
    // --opt=value and -Xvalue forms.
    if (word.startsWith('--') && word.includes('=')) {
      inlineValue = word.slice(word.indexOf('=') + 1);
      word = word.slice(0, word.indexOf('='));
    } else if (/^-[XHdAeb]./.test(word)) {
      inlineValue = word.slice(2);
      word = word.slice(0, 2);
    }
    const value = (): string => {
      if (inlineValue !== undefined) return inlineValue;
      const next = expanded[++i];
      if (next === undefined) throw new CurlParseError(`The option ${word} needs a value.`);
      return next;
    };
    switch (word) {
      case '-X':
      case '--request':
        method = value().toUpperCase();
        if (!/^[A-Z]+$/.test(method)) throw new CurlParseError(`"${method}" is not an HTTP method.`);
        break;
      case '-H':
      case '--header': {
        const header = value();
        const colon = header.indexOf(':');
        if (colon <= 0) throw new CurlParseError(`The header "${header}" has no "Name: value" form.`);
        const name = header.slice(0, colon).trim();
        const headerValue = header.slice(colon + 1).trim();
        // curl's "Name;" form sends an empty header; "Name:" with no value removes a default one.
        if (headerValue !== '' || header.endsWith(';')) headers.push([name, headerValue]);
        break;
      }
      case '-d':
      case '--data':
      case '--data-raw':
      case '--data-binary':
      case '--data-ascii': {
        const body = value();
        if (body.startsWith('@') && word !== '--data-raw')
          throw new CurlParseError(
            `${word} ${body}: reading the body from a file is not supported here; paste the body itself.`,
          );
        data.push(body);
        break;
      }
      case '--data-urlencode':
        throw new CurlParseError('--data-urlencode is not supported: paste the encoded body with --data-raw.');
      case '--json': {
        const body = value();
        if (body.startsWith('@'))
          throw new CurlParseError(
            `--json ${body}: reading the body from a file is not supported here; paste the body itself.`,
          );
        data.push(body);
        json = true;
        break;
      }
      case '--url':
        url = value();
        break;
      case '-A':
      case '--user-agent':
        optionHeader('User-Agent', value());
        break;
      case '-e':
      case '--referer':
        optionHeader('Referer', value());
        break;
      case '-b':
      case '--cookie': {
        const cookie = value();
        if (!cookie.includes('='))
          throw new CurlParseError(
            `-b ${cookie}: reading cookies from a file is not supported; pass them as "name=value".`,
          );
        optionHeader('Cookie', cookie);
        break;
      }
      case '-G':
      case '--get':
        throw new CurlParseError(
          `${word} (send the data in the query string) is not supported: put the query in the URL.`,
        );
      case '-k':
      case '--insecure':
        throw new CurlParseError(
          `${word} (skip TLS certificate checks) is not supported: the inspector always verifies certificates.`,
        );
      case '-u':
      case '--user':
        throw new CurlParseError(`${word} is not supported: add an "Authorization" header instead.`);
      case '-F':
      case '--form':
        throw new CurlParseError(
          `${word} (multipart form upload) is not supported: agent APIs take a JSON body; use --data-raw or --json.`,
        );
      default:
        if (NO_EFFECT.has(word)) {
          ignored.push(word);
        } else if (NO_EFFECT_WITH_VALUE.has(word)) {
          value();
          ignored.push(word);
        } else if (word.startsWith('-') && word.length > 1) {
          throw new CurlParseError(
            `The curl option ${word} is not understood here. Understood: -X, -H, -d/--data/--data-raw/--data-binary, --json, --url, -A, -e, -b.`,
          );
        } else if (url === undefined) {
          url = word;
        } else {
          throw new CurlParseError(
            `Two URLs in one command ("${url}" and "${word}"): the inspector opens one stream at a time.`,
          );
        }
    }
  }
  if (url === undefined) throw new CurlParseError('The command has no URL.');
  // curl takes a bare host for http://; a URL that starts with a {{variable}} (Postman's and
  // Insomnia's {{base_url}}) names its scheme in the variable and is kept as written.
  if (!/^https?:\/\//i.test(url) && !url.startsWith('{{')) url = `http://${url}`;

  if (json) {
    if (!hasHeader(headers, 'content-type')) headers.push(['Content-Type', 'application/json']);
    if (!hasHeader(headers, 'accept')) headers.push(['Accept', 'application/json']);
  }
  const body = data.length > 0 ? data.join(json ? '' : '&') : undefined;
  const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  return {
    url,
    method: method ?? (body !== undefined ? 'POST' : 'GET'),
    headers,
    ...(body !== undefined ? { body } : {}),
    bodyIsJson: json || /\bjson\b/i.test(contentType),
    ignored,
  };
}

function hasHeader(headers: readonly [string, string][], name: string): boolean {
  return headers.some(([n]) => n.toLowerCase() === name);
}

/** Quotes a word for a POSIX shell: single quotes, with ' written as '\''. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export interface CurlRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
}

/** A curl command reproducing the request, streaming (-N) so the SSE shows as it arrives. */
export function toCurl(request: CurlRequest): string {
  const parts = ['curl', '-N'];
  const method = request.method.toUpperCase();
  const impliedMethod = request.body !== undefined ? 'POST' : 'GET';
  if (method !== impliedMethod) parts.push('-X', method);
  parts.push(shellQuote(request.url));
  for (const [name, value] of request.headers) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  return parts.join(' ');
}
