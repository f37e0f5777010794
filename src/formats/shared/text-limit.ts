import type { Issue } from '../../model/errors.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';

/** Pushes an issue when a text block is over the size limit (UTF-8 bytes). */
export function checkTextSize(text: string, limits: Limits, path: Path, issues: Issue[]): void {
  // A UTF-16 unit is at most 3 UTF-8 bytes: skip the byte count when the text cannot be over.
  if (text.length * 3 <= limits.maxTextBytes) return;
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxTextBytes) {
    issues.push({
      code: 'too_large',
      path,
      message: `text is ${bytes} bytes, over the limit of ${limits.maxTextBytes}`,
      expected: `at most ${limits.maxTextBytes} bytes`,
      received: `${bytes} bytes`,
    });
  }
}

/**
 * Whether checkTextSize would push an issue: lets a hot loop build the issue's path only for a
 * text that is over (almost never), not for every text it looks at.
 */
export function overTextLimit(text: string, limits: Limits): boolean {
  return text.length * 3 > limits.maxTextBytes && Buffer.byteLength(text, 'utf8') > limits.maxTextBytes;
}
