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
  constructor(message: string, code = 'bad_usage') {
    super(code, message);
    this.name = 'UsageError';
  }
}

/**
 * A package a feature needs could not be loaded: not installed (the memory stores' drivers are
 * optional), or installed but unusable (a native build that failed). Says what to install.
 */
export class MissingPackageError extends UsageError {
  /** The npm package, e.g. `better-sqlite3`. */
  readonly packageName: string;
  /** The command that installs it, e.g. `npm install better-sqlite3`. */
  readonly installCommand: string;

  /** `feature` names what needs it (`sqlite: stores`); `reason` is what loading it said. */
  constructor(feature: string, packageName: string, reason: string) {
    const installCommand = `npm install ${packageName}`;
    super(`${feature} need the ${packageName} package (${installCommand}), which could not be loaded: ${reason}`, 'missing_package');
    this.name = 'MissingPackageError';
    this.packageName = packageName;
    this.installCommand = installCommand;
  }
}
