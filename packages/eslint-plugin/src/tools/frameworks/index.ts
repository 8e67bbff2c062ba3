import { aiSdk } from './ai-sdk.js';
import { fastmcp } from './fastmcp.js';
import { inngestAgentKit } from './inngest-agent-kit.js';
import { langchain } from './langchain.js';
import { mastra } from './mastra.js';
import { mcpLowLevel } from './mcp-low-level.js';
import { mcp } from './mcp.js';
import { openaiAgents } from './openai-agents.js';
import { retrysafe } from './retrysafe.js';
import type { FrameworkEntry, PolicyLocation, StandIn } from './types.js';

// The catalogue of frameworks: one module per framework in this folder, listed here. Everything
// else is derived from it: the factories the recogniser knows (tools/factories.ts), the tables of
// the type-aware rule (program/declaredToolFactories.ts), the `ToolFramework` union, what each
// framework's tools are told to add, and the stand-ins the typed tests use. To add a framework,
// write its module and list it here (docs/contributing.md).

/** Every framework the plugin recognises tools of, in the order their factories are tried. */
export const FRAMEWORKS = [retrysafe, aiSdk, openaiAgents, langchain, mastra, inngestAgentKit, mcp, mcpLowLevel, fastmcp] as const satisfies readonly FrameworkEntry[];

/** The framework a tool definition belongs to; `custom` comes from the `toolFactories` option. */
export type ToolFramework = (typeof FRAMEWORKS)[number]['framework'] | 'custom';

/** Each framework by its catalogue id. */
export const FRAMEWORK_BY_ID = {
  retrysafe,
  'ai-sdk': aiSdk,
  'openai-agents': openaiAgents,
  langchain,
  mastra,
  'inngest-agent-kit': inngestAgentKit,
  mcp,
  'mcp-low-level': mcpLowLevel,
  fastmcp,
} as const satisfies Record<(typeof FRAMEWORKS)[number]['id'], FrameworkEntry>;

/** Where the tools of a framework declare their policy (the first entry's, for frameworks that share one). */
export function getPolicyLocation(framework: Exclude<ToolFramework, 'custom'>): PolicyLocation {
  return POLICY_BY_FRAMEWORK.get(framework) as PolicyLocation;
}

/**
 * Whether a framework's tool config can hold its policy (its own fields, a nested `retrysafe`, MCP
 * annotations); `custom` factories may wrap any framework, so theirs can.
 */
export function declaresPolicyInConfig(framework: ToolFramework): boolean {
  if (framework === 'custom') return true;
  const location = getPolicyLocation(framework);
  return location.configFields === true || location.nested !== undefined || location.annotations === true;
}

const POLICY_BY_FRAMEWORK = new Map<string, PolicyLocation>();
for (const entry of FRAMEWORKS) if (!POLICY_BY_FRAMEWORK.has(entry.framework)) POLICY_BY_FRAMEWORK.set(entry.framework, entry.policy);

/** Where a durable run id comes from for the tools of a framework (its first entry's), or `undefined` for `custom`. */
export function getRunIdSource(framework: ToolFramework): string | undefined {
  return framework === 'custom' ? undefined : RUN_ID_BY_FRAMEWORK.get(framework);
}

/** A framework's name in messages (its first entry's title), or `undefined` for `custom`. */
export function getFrameworkTitle(framework: ToolFramework): string | undefined {
  return framework === 'custom' ? undefined : FRAMEWORKS.find((entry) => entry.framework === framework)?.title;
}

const RUN_ID_BY_FRAMEWORK = new Map<string, string>();
for (const entry of FRAMEWORKS) if (!RUN_ID_BY_FRAMEWORK.has(entry.framework)) RUN_ID_BY_FRAMEWORK.set(entry.framework, entry.runId);

/** The stand-ins of every framework, as tests/fixtures holds them. */
export const STAND_INS: readonly (StandIn & { readonly framework: string })[] = FRAMEWORKS.flatMap((entry) =>
  entry.standIns.map((standIn) => ({ ...standIn, framework: entry.id })),
);

/** Whether `source` is one of `entry`'s modules (or, where the entry says so, a subpath of one). */
export function isFrameworkModule(entry: FrameworkEntry, source: string): boolean {
  return entry.modules.some((name) => source === name || (entry.moduleSubpaths === true && source.startsWith(`${name}/`)));
}

export { BARE_POLICY_KEY, MCP_POLICY_KEY } from './remedies.js';
export type { Adapter, FactoryEntry, FrameworkEntry, PolicyLocation, RegistrationEntry, StandIn, ToolListEntry } from './types.js';
export { aiSdk, fastmcp, inngestAgentKit, langchain, mastra, mcp, mcpLowLevel, openaiAgents, retrysafe };
