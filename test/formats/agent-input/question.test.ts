/**
 * deriveQuestion: the source design's rule (a string is itself; content blocks give their text
 * joined with a space; messages give the text of the last user message) and ml-commons'
 * `extractQuestionText` as the alternative style. Both are exported from the package root.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/model/errors.js';
import { deriveQuestion } from '../../../src/index.js';

const text = (t: string) => ({ type: 'text', text: t });
const img = { type: 'image', image: { type: 'base64', format: 'png', data: 'iVBORw0KGgo=' } };
const msg = (role: string, ...texts: string[]) => ({ role, content: texts.map(text) });

describe('deriveQuestion', () => {
  it('gives a string input and the legacy question unchanged', () => {
    expect(deriveQuestion({ input: '  What is AI? ' })).toBe('  What is AI? ');
    expect(deriveQuestion({ parameters: { question: 'Why?', verbose: true } })).toBe('Why?');
  });

  it('joins the text of content blocks with a space, ignoring media', () => {
    expect(deriveQuestion({ input: [text('Describe'), img, text('this image.')] })).toBe('Describe this image.');
    expect(deriveQuestion({ input: [img] })).toBe('');
  });

  it('takes the text of the last user message, not of tool, assistant or other-role messages', () => {
    const body = {
      input: [
        msg('user', 'First', 'question'),
        msg('assistant', 'Answer'),
        msg('USER', 'Second', 'one'),
        { role: 'assistant', content: [], toolCalls: [{ id: 'c', function: { name: 'f', arguments: '' } }] },
        { role: 'tool', toolCallId: 'c', content: [text('result')] },
        msg('critic', 'Too long'),
      ],
    };
    expect(deriveQuestion(body)).toBe('Second one');
    expect(deriveQuestion({ input: [msg('system', 'Be brief'), msg('assistant', 'Hi')] })).toBe('');
  });

  it("reproduces ml-commons' extractQuestionText with style 'ml-commons'", () => {
    expect(deriveQuestion({ input: [text(' First. '), img, text('Second.')] }, { style: 'ml-commons' })).toBe('First.\nSecond.\n');
    const body = { input: [msg('user', 'Hello'), msg('assistant', 'Hi'), msg('user', 'A'), { role: 'tool', toolCallId: 'c', content: [text('B')] }] };
    expect(deriveQuestion(body, { style: 'ml-commons' })).toBe('A\n\nB\n');
  });

  it('validates first, throwing the same ValidationError as decode', () => {
    expect(() => deriveQuestion({ input: 42 })).toThrow(ValidationError);
    expect(() => deriveQuestion(null)).toThrow('Input cannot be null');
  });
});
