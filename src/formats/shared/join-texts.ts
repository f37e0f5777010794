import type { TextPart } from '../../model/part.js';

/**
 * Joins text parts into one string with a blank line between them, except next to a cited part:
 * cited parts are segments of one continuous answer (Anthropic splits text at each citation),
 * so they join with nothing. Returns where each part starts in the result.
 */
export function joinTexts(parts: readonly TextPart[]): { text: string; starts: number[] } {
  let text = '';
  const starts: number[] = [];
  parts.forEach((p, i) => {
    if (i > 0) {
      const prev = parts[i - 1];
      const cited = (p.citations?.length ?? 0) > 0 || (prev?.citations?.length ?? 0) > 0;
      text += cited ? '' : '\n\n';
    }
    starts.push(text.length);
    text += p.text;
  });
  return { text, starts };
}
