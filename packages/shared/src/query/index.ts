export * from './lexer';
export * from './ast';
export * from './parser';
export * from './fields';
export * from './limits';
