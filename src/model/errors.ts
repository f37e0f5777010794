import { formatPath, type Loss, type Path } from './loss.js';

/** One problem found in input, with the JSON path where it is. */
export interface Issue {
  code: string;
  path: Path;
  message: string;
  expected?: string;
  received?: string;
}

/** The one error base class. `code` is stable; `issues` says what and where. */
export class InterlinguaError extends Error {
  readonly code: string;
  readonly issues: Issue[];

  constructor(code: string, message: string, issues: Issue[] = []) {
    super(message);
    this.name = 'InterlinguaError';
    this.code = code;
    this.issues = issues;
  }
}

/** The input is not a valid body of the format it claims to be. */
export class ValidationError extends InterlinguaError {
  constructor(issues: Issue[]) {
    const first = issues[0];
    const summary = first ? `${formatPath(first.path)}: ${first.message}` : 'invalid input';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super('invalid_input', `Invalid input: ${summary}${more}`, issues);
    this.name = 'ValidationError';
  }
}

/** `strict` was asked for and the conversion would lose something. */
export class LossError extends InterlinguaError {
  readonly losses: Loss[];
  constructor(losses: Loss[]) {
    super(
      'lossy_conversion',
      `Conversion would lose information (${losses.length} loss${losses.length === 1 ? '' : 'es'})`,
      losses.map((l) => ({ code: l.code, path: l.path, message: l.message })),
    );
    this.name = 'LossError';
    this.losses = losses;
  }
}

/** The caller asked for something interlingua does not do (unknown format, unsupported kind). */
export class UsageError extends InterlinguaError {
  constructor(message: string) {
    super('bad_usage', message);
    this.name = 'UsageError';
  }
}
