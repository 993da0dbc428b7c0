import { describe, expect, it } from 'vitest';
import { dumpsDefaultStr, modelClassName, pythonRepr } from './python-repr';

describe('modelClassName', () => {
  it.each([
    ['bash_code_execution_result', 'BetaBashCodeExecutionResultBlock'],
    ['text_editor_code_execution_create_result', 'BetaTextEditorCodeExecutionCreateResultBlock'],
    ['web_search_result', 'BetaWebSearchResultBlock'],
    ['web_search_tool_result_error', 'BetaWebSearchToolResultError'],
  ])('%s → %s', (type, name) => {
    expect(modelClassName(type)).toBe(name);
  });
});

describe('dumpsDefaultStr', () => {
  // The structured content of example_1.raw.sse and the delta of example_1.json.sse for
  // tool use srvtoolu_01AQ5KMkwf3eT5mMTDa2SgXs.
  it('renders an SDK result object as the repr string json.dumps(default=str) sends', () => {
    const structured = {
      content: [],
      return_code: 0,
      stderr: '',
      stdout: 'Restaurant invoice created successfully!\nLocation: /tmp/bella_italia_invoice.png\n',
      type: 'bash_code_execution_result',
    };
    expect(dumpsDefaultStr(structured)).toBe(
      "BetaBashCodeExecutionResultBlock(content=[], return_code=0, stderr='', stdout='Restaurant invoice created successfully!\\nLocation: /tmp/bella_italia_invoice.png\\n', type='bash_code_execution_result')",
    );
  });

  it('renders nested models, None and booleans', () => {
    const structured = {
      content: [{ file_id: 'file_1', type: 'bash_code_execution_output' }],
      is_file_update: false,
      page_age: null,
      type: 'bash_code_execution_result',
    };
    expect(pythonRepr(structured)).toBe(
      "BetaBashCodeExecutionResultBlock(content=[BetaBashCodeExecutionOutputBlock(file_id='file_1', type='bash_code_execution_output')], is_file_update=False, page_age=None, type='bash_code_execution_result')",
    );
  });

  it('keeps a list a list of repr strings, and plain values as they are', () => {
    const results = [{ title: 'A "quoted" title ]]> & more', type: 'web_search_result' }, 'text', 3];
    expect(dumpsDefaultStr(results)).toEqual([
      `BetaWebSearchResultBlock(title='A "quoted" title ]]> & more', type='web_search_result')`,
      'text',
      3,
    ]);
  });

  it('renders an object without a type as a dict', () => {
    expect(pythonRepr({ a: [1, 'x'], b: { c: true } })).toBe("{'a': [1, 'x'], 'b': {'c': True}}");
  });
});
