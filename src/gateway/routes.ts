/**
 * Model routing: the first route whose glob matches the request's model wins. Globs know `*`
 * (any run of characters) and `?` (one character); everything else matches itself.
 */
import type { GatewayConfig, RouteConfig, UpstreamConfig } from './config.js';

export interface Routed {
  /** The upstream's name in the configuration. */
  name: string;
  upstream: UpstreamConfig;
  /** The model the upstream is asked for (the rewrite, or the client's own). */
  model: string;
  route: RouteConfig;
}

function globToRegExp(glob: string): RegExp {
  let src = '';
  for (const ch of glob) {
    if (ch === '*') src += '.*';
    else if (ch === '?') src += '.';
    else src += ch.replace(/[\\^$.+()|{}[\]]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 's');
}

export class Router {
  private readonly compiled: { route: RouteConfig; re: RegExp }[];

  constructor(private readonly config: GatewayConfig) {
    this.compiled = config.routes.map((route) => ({ route, re: globToRegExp(route.model) }));
  }

  /** The route for `model`, or undefined when none matches. */
  match(model: string): Routed | undefined {
    for (const { route, re } of this.compiled) {
      if (!re.test(model)) continue;
      const upstream = this.config.upstreams[route.upstream] as UpstreamConfig;
      return { name: route.upstream, upstream, model: route.model_rewrite ?? model, route };
    }
    return undefined;
  }

  /** The model names routes name literally (patterns without wildcards), for `GET /v1/models`. */
  listedModels(): string[] {
    const out = new Set<string>();
    for (const { route } of this.compiled) {
      if (!/[*?]/.test(route.model)) out.add(route.model);
      else if (route.model_rewrite !== undefined) out.add(route.model_rewrite);
    }
    return [...out];
  }
}
