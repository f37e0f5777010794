import type { z } from 'zod';
import type { Issue } from '../../model/errors.js';
import type { Path } from '../../model/loss.js';

/** Turns zod's issues into ours, with full JSON paths and plain messages. */
export function fromZodIssues(issues: readonly z.core.$ZodIssue[], prefix: Path = []): Issue[] {
  return issues.map((issue) => {
    const path = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    const out: Issue = { code: issue.code, path, message: issue.message };
    if ('expected' in issue && typeof issue.expected === 'string') out.expected = issue.expected;
    return out;
  });
}
