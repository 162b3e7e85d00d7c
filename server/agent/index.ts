/**
 * The DRG agent: clinical text → ICD-10-CM/PCS codes with evidence → MS-DRG (server/drg) with an explanation.
 * Two engines behind one interface (README.md "DRG agent"): deterministic (default, offline, free) and LLM (tool use
 * through the gateway core, when AGENT_MODEL names a PHI-approved model).
 */
export { runAgent, composeResponse, grouperLink, type AgentInput, type AgentRunOptions, type AgentRunResult, type AgentReceipt } from './run';
export { codeNoteDeterministic } from './deterministic';
export { codeNoteWithModel, parseFinalAnswer, systemPrompt } from './llm';
export { groupCoding } from './grouping';
export { CodeResolver, displayCode } from './resolve';
export { chooseEngine, agentModelName } from './config';
export { AGENT_TOOLS, runTool } from './tools';
export { AgentRequestSchema, AgentCodesSchema, AgentCodeSchema, MAX_MESSAGE_CHARS } from './schema';
export type * from './types';
