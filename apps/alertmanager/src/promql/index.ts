export * from './ast';
export { FUNCTIONS } from './functions';
export { parseExpr } from './parser/parse-expr';
export { PromqlParseError, type ParseProblem } from './parser/parse-error';
export type { ParserOptions } from './parser/syntax-tree';
export { PromqlEngine, type EngineOptions } from './engine/engine';
export { PromqlEvalError, QueryTimeoutError, TooManySamplesError } from './engine/errors';
export type { QueryResult } from './engine/values';
export { formatExpr } from './printer';
