export type LossAction = 'dropped' | 'approximated' | 'stashed';

export type Path = (string | number)[];

/** Something the target format could not hold exactly. Losses are data, never silent. */
export interface Loss {
  code: string;
  /** Where in the source body, as a JSON path. */
  path: Path;
  message: string;
  action: LossAction;
}

export function formatPath(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out === '' ? '(root)' : out;
}
