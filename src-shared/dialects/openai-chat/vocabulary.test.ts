import { describe, expect, it } from 'vitest';
import { summaryUsage } from './vocabulary';

describe('the usage a message summary shows', () => {
  it("adds xAI's reasoning tokens, which its completion_tokens leave out, to the output tokens", () => {
    // xAI: total_tokens = prompt + completion + reasoning.
    const xai = { prompt_tokens: 12, completion_tokens: 1, total_tokens: 303 };
    expect(summaryUsage({ ...xai, completion_tokens_details: { reasoning_tokens: 290 } })).toMatchObject({
      input_tokens: 12,
      output_tokens: 291,
      completion_tokens: 1,
    });
  });

  it('must not: count twice the reasoning tokens that completion_tokens already holds (DeepSeek, OpenAI)', () => {
    const deepseek = { prompt_tokens: 374, completion_tokens: 61, total_tokens: 435 };
    expect(summaryUsage({ ...deepseek, completion_tokens_details: { reasoning_tokens: 17 } })).toMatchObject({
      output_tokens: 61,
    });
    // Without a total to tell, the count is taken as sent.
    expect(summaryUsage({ completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 3 } })).toMatchObject({
      output_tokens: 5,
    });
  });
});
