import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src-shared/sse/rechunk';
import { CurlParseError, parseCurl, shellQuote, shellWords, toCurl } from './curl';

describe('shellWords', () => {
  it.each([
    [`curl 'a b' "c d" e\\ f`, ['curl', 'a b', 'c d', 'e f']],
    [`curl -d '{"a":"it'\\''s"}'`, ['curl', '-d', `{"a":"it's"}`]],
    [`curl "say \\"hi\\" \\\\ \\$HOME"`, ['curl', 'say "hi" \\ $HOME']],
    [`curl $'line1\\nline2\\t\\'q\\'' x`, ['curl', "line1\nline2\t'q'", 'x']],
    [`curl $'\\x41\\u00e9\\101'`, ['curl', 'Aé' + 'A']],
    ['curl \\\n  -N \\\r\n  url', ['curl', '-N', 'url']],
    ['curl   a\t\tb\n', ['curl', 'a', 'b']],
    [`curl ''`, ['curl', '']],
  ])('splits %j', (input, expected) => {
    expect(shellWords(input)).toEqual(expected);
  });

  it.each([
    [`curl 'open`, /Unclosed single quote/],
    [`curl "open`, /Unclosed double quote/],
    [`curl $'open`, /Unclosed \$'…' quote/],
    ['curl $TOKEN', /substitutions/],
    ['curl "Bearer $TOKEN"', /substitutions/],
    ['curl url | jq .', /pipe, redirection/],
    ['curl url > out.txt', /pipe, redirection/],
  ])('refuses %j with a clear message', (input, message) => {
    expect(() => shellWords(input)).toThrow(message);
  });
});

describe('parseCurl', () => {
  it('reads a browser "Copy as cURL" of a streaming POST', () => {
    const parsed = parseCurl(`curl 'http://localhost:8000/agent/run' \\
  -H 'Accept: text/event-stream' \\
  -H 'Content-Type: application/json' \\
  -H 'Authorization: Bearer abc' \\
  --data-raw '{"user_prompt":"hi","agent_type":"agent_frontend_tools"}' \\
  --compressed`);
    expect(parsed).toEqual({
      url: 'http://localhost:8000/agent/run',
      method: 'POST',
      headers: [
        ['Accept', 'text/event-stream'],
        ['Content-Type', 'application/json'],
        ['Authorization', 'Bearer abc'],
      ],
      body: '{"user_prompt":"hi","agent_type":"agent_frontend_tools"}',
      bodyIsJson: true,
      ignored: ['--compressed'],
    });
  });

  it('defaults to GET without a body and honours -X', () => {
    expect(parseCurl('curl -N https://x.test/stream').method).toBe('GET');
    expect(parseCurl('curl -X put https://x.test -d a=1').method).toBe('PUT');
    expect(parseCurl('curl --request=PATCH https://x.test').method).toBe('PATCH');
    expect(parseCurl('curl -XDELETE https://x.test').method).toBe('DELETE');
  });

  it('joins several -d with & as curl does', () => {
    expect(parseCurl('curl x.test -d a=1 --data b=2 --data-binary c=3').body).toBe('a=1&b=2&c=3');
  });

  it('treats --json as a JSON body with JSON content type and accept headers', () => {
    const parsed = parseCurl(`curl --json '{"a":1}' https://x.test/run`);
    expect(parsed.method).toBe('POST');
    expect(parsed.bodyIsJson).toBe(true);
    expect(parsed.headers).toEqual([
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json'],
    ]);
  });

  it('keeps an explicit content type with --json', () => {
    const parsed = parseCurl(`curl --json '{}' -H 'content-type: application/vnd.x+json' x.test`);
    expect(parsed.headers.filter(([n]) => n.toLowerCase() === 'content-type')).toEqual([
      ['content-type', 'application/vnd.x+json'],
    ]);
  });

  it('maps -A, -e and -b to headers and adds http:// to a bare host', () => {
    const parsed = parseCurl(`curl -A 'ua/1' -e https://ref.test -b 'a=1; b=2' localhost:9/x`);
    expect(parsed.url).toBe('http://localhost:9/x');
    expect(parsed.headers).toEqual([
      ['User-Agent', 'ua/1'],
      ['Referer', 'https://ref.test'],
      ['Cookie', 'a=1; b=2'],
    ]);
  });

  it('keeps a URL that starts with a {{variable}} as written: the variable names the scheme', () => {
    expect(parseCurl(`curl -N '{{base_url}}/agent/run' -d '{}'`).url).toBe('{{base_url}}/agent/run');
    expect(parseCurl("curl '{{ host }}/x'").url).toBe('{{ host }}/x');
  });

  it('accepts options without effect here and says which', () => {
    expect(parseCurl('curl -sS -N -L -m 30 --retry 3 x.test').ignored).toEqual([
      '-s',
      '-S',
      '-N',
      '-L',
      '-m',
      '--retry',
    ]);
    expect(parseCurl('curl -sN x.test').ignored).toEqual(['-s', '-N']);
  });

  it.each([
    ['', /empty/],
    ['wget http://x', /starting with "curl"/],
    ['curl -H', /needs a value/],
    ['curl -H nocolon x.test', /"Name: value"/],
    ['curl -d @body.json x.test', /from a file/],
    ['curl --json @body.json x.test', /from a file/],
    ['curl -F a=b x.test', /multipart/],
    ['curl -k https://x.test', /certificates/],
    ['curl -u me:pw x.test', /Authorization/],
    ['curl -G -d a=1 x.test', /query/],
    ['curl --proxy http://p x.test', /--proxy is not understood/],
    ['curl -X "P OST" x.test', /not an HTTP method/],
    ['curl a.test b.test', /Two URLs/],
    ['curl -N', /no URL/],
  ])('explains what it does not understand: %j', (command, message) => {
    expect(() => parseCurl(command)).toThrow(CurlParseError);
    expect(() => parseCurl(command)).toThrow(message);
  });
});

describe('toCurl', () => {
  it('quotes for the shell and round-trips through parseCurl', () => {
    const request = {
      method: 'POST',
      url: 'http://127.0.0.1:8000/agent/run?x=1&y=2',
      headers: [
        ['Content-Type', 'application/json'],
        ['X-Note', "it's $HOME"],
      ] as [string, string][],
      body: `{"user_prompt":"it's \\"quoted\\"\\nnext"}`,
    };
    const command = toCurl(request);
    expect(command).toContain(`'X-Note: it'\\''s $HOME'`);
    const parsed = parseCurl(command);
    expect(parsed).toMatchObject({ url: request.url, method: 'POST', headers: request.headers, body: request.body });
  });

  it('writes -X only when the method is not implied', () => {
    expect(toCurl({ method: 'GET', url: 'http://x.test', headers: [] })).toBe('curl -N http://x.test');
    expect(toCurl({ method: 'DELETE', url: 'http://x.test', headers: [] })).toBe('curl -N -X DELETE http://x.test');
    expect(toCurl({ method: 'POST', url: 'http://x.test', headers: [], body: '' })).toBe(
      "curl -N http://x.test --data-raw ''",
    );
  });

  it('leaves safe words unquoted', () => {
    expect(shellQuote('http://a.test/x-y_z')).toBe('http://a.test/x-y_z');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote('')).toBe("''");
  });
});

describe('pasted commands of any shape', () => {
  it('-A, -e and -b set their header trimmed, and none when empty (curl -A "" removes the User-Agent)', () => {
    expect(parseCurl(`curl -A '  agent/1 ' -e '' -b ' a=1 ' http://h/`).headers).toEqual([
      ['User-Agent', 'agent/1'],
      ['Cookie', 'a=1'],
    ]);
  });

  it('are parsed or refused with a CurlParseError, and what is parsed comes back the same through Copy as curl (20,000 seeded commands)', () => {
    const atoms = [
      ...['curl', '-X', 'POST', 'GET', '-H', `'Content-Type: application/json'`, '"Accept: text/event-stream"'],
      ...['-d', `'{"a":1}'`, '--data-raw', '--json', "$'x\\ny'", "$'\\x41\\u00e9'", '"a\\"b"', "'", '"', '\\'],
      ...[
        '\\\n',
        '\n',
        ' ',
        'http://127.0.0.1:8000/agent/run',
        '{{base_url}}/x',
        'example.com',
        '-sSN',
        '--compressed',
      ],
      ...['-A', '-e', '-b', 'x=1', '--url', '-', '--', '$(id)', '`id`', 'é', '😀', '\u0000', '\ud800', '-XPOST'],
      ...['--header=X: 1', '-u', 'user:pw', '--data-binary', '@file', '&&', '|', ';', '#'],
    ];
    const random = seededRandom(20_261_130);
    const wrong: string[] = [];
    let parsed = 0;
    for (let i = 0; i < 20_000; i++) {
      let command = random() < 0.8 ? 'curl ' : '';
      for (let n = 1 + Math.floor(random() * 10); n > 0; n--)
        command += `${atoms[Math.floor(random() * atoms.length)] as string}${random() < 0.7 ? ' ' : ''}`;
      let request: ReturnType<typeof parseCurl>;
      try {
        request = parseCurl(command);
      } catch (error) {
        if (!(error instanceof CurlParseError)) wrong.push(`${JSON.stringify(command)}: ${String(error)}`);
        continue;
      }
      parsed++;
      const { method, url, headers, body } = request;
      const again = parseCurl(toCurl({ method, url, headers, ...(body !== undefined ? { body } : {}) }));
      if (
        JSON.stringify([again.method, again.url, again.headers, again.body]) !==
        JSON.stringify([method, url, headers, body])
      )
        wrong.push(`${JSON.stringify(command)} came back as ${toCurl(again)}`);
    }
    expect(wrong).toEqual([]);
    expect(parsed).toBeGreaterThan(1000);
  });
});
